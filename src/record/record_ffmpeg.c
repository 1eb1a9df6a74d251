/* Movie recording through FFmpeg's libraries: a queue of RGBA frames, converted and encoded to H.264 on a thread. */
/* SPDX-License-Identifier: MIT */
#include "record.h"

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "outfile.h"

/* Frames waiting for the encoder. Eight 1280x800 frames are 33 MB; the window drops frames
 * beyond this (realtime), headless waits. */
#define QUEUE 8

/* Bicubic for frames of another size than the movie (a window made full screen).
 * SWS_ACCURATE_RND because without it an x86 swscale that has its inline assembly but not its
 * external (nasm) assembly, such as an FFmpeg configured with --disable-x86asm, stores the
 * vertical filter in the MMX layout and then runs the C vertical scaler on it: the chroma
 * planes, the only ones filtered vertically for 4:2:0, come out as garbage (a magenta or
 * striped movie). With it the C and the assembly scalers both give BT.709 to within one unit. */
#define SWS_FLAGS (SWS_BICUBIC | SWS_ACCURATE_RND)

/* The RGBA to YUV conversion for one source size. */
struct conv {
    struct SwsContext *sws; /* NULL until the first frame */
    int w, h;               /* source size the context was made for */
};

struct slot {
    uint8_t *rgba;
    size_t cap;        /* bytes allocated */
    int w, h, bottom_up;
    int64_t pts;       /* when it shows, frames of 1/fps */
};

struct gc_recorder {
    struct gc_record_params p;
    char path[4096];
    struct gc_outfile out; /* where the bytes go: a .part renamed when the movie is
                            * finished, or a device or pipe written as it is */
    AVFormatContext *fmt;
    AVCodecContext *enc;
    AVStream *stream;
    AVFrame *yuv;
    AVPacket *pkt;
    struct conv conv;
    const char *codec_name;

    pthread_t thread;
    int thread_started;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    struct slot slots[QUEUE];
    unsigned head, count;    /* oldest queued slot, slots queued */
    int closing;             /* no more frames will come */
    enum gc_status error;    /* first failure of the encoder thread */
    uint64_t frames, dropped;
    int64_t next_pts;        /* the least pts the next frame may have */
    int64_t end_pts;         /* the last frame encoded's pts + 1 (the movie's length) */
};

int gc_record_available(void)
{
    return 1;
}

static const char *av_err(int e, char *buf, size_t size)
{
    av_strerror(e, buf, size);
    return buf;
}

/* Sends one frame (NULL = flush) to the encoder and writes what comes out. */
static enum gc_status encode(struct gc_recorder *r, AVFrame *frame)
{
    char eb[128];
    int e = avcodec_send_frame(r->enc, frame);
    if (e < 0) {
        gc_log_error("recording %s: encoder refused a frame: %s", r->path, av_err(e, eb, sizeof eb));
        return GC_ERR_IO;
    }
    for (;;) {
        e = avcodec_receive_packet(r->enc, r->pkt);
        if (e == AVERROR(EAGAIN) || e == AVERROR_EOF)
            return GC_OK;
        if (e < 0) {
            gc_log_error("recording %s: encoding failed: %s", r->path, av_err(e, eb, sizeof eb));
            return GC_ERR_IO;
        }
        av_packet_rescale_ts(r->pkt, r->enc->time_base, r->stream->time_base);
        r->pkt->stream_index = r->stream->index;
        e = av_interleaved_write_frame(r->fmt, r->pkt);
        /* The file's writes are buffered: a full disk shows in pb->error, not in e. */
        if (e >= 0 && r->fmt->pb->error < 0)
            e = r->fmt->pb->error;
        if (e < 0) {
            gc_log_error("recording %s: writing failed: %s", r->path, av_err(e, eb, sizeof eb));
            return GC_ERR_IO;
        }
    }
}

/* RGBA (any size, either row order) to dst, a YUV 4:2:0 frame of its own size. */
static enum gc_status convert(const char *path, struct conv *c, const uint8_t *rgba, int w, int h,
                              int bottom_up, AVFrame *dst)
{
    const uint8_t *src[4] = {rgba, NULL, NULL, NULL};
    int stride[4] = {4 * w, 0, 0, 0};
    int e;
    if (!c->sws || c->w != w || c->h != h) {
        sws_freeContext(c->sws);
        c->sws = sws_getContext(w, h, AV_PIX_FMT_RGBA, dst->width, dst->height,
                                AV_PIX_FMT_YUV420P, SWS_FLAGS, NULL, NULL, NULL);
        if (!c->sws) {
            gc_log_error("recording %s: this FFmpeg cannot convert %dx%d RGBA to %dx%d "
                         "YUV 4:2:0", path, w, h, dst->width, dst->height);
            return GC_ERR_UNSUPPORTED;
        }
        c->w = w;
        c->h = h;
        /* BT.709, limited range: what players assume for HD H.264 (the stream says so too).
         * The 1 (full range) is RGB's; swscale takes only the YUV side's range. */
        e = sws_setColorspaceDetails(c->sws, sws_getCoefficients(SWS_CS_ITU709), 1,
                                     sws_getCoefficients(SWS_CS_ITU709), 0, 0, 1 << 16, 1 << 16);
        if (e < 0) {
            gc_log_error("recording %s: this FFmpeg cannot convert to BT.709 YUV", path);
            return GC_ERR_UNSUPPORTED;
        }
    }
    if (bottom_up) {
        /* glReadPixels rows start at the bottom: walk them backwards (swscale's C and
         * assembly input readers both take a negative stride). */
        src[0] = rgba + (size_t)(h - 1) * 4 * (size_t)w;
        stride[0] = -4 * w;
    }
    e = sws_scale(c->sws, src, stride, 0, h, dst->data, dst->linesize);
    if (e != dst->height) {
        gc_log_error("recording %s: converting a %dx%d frame to YUV failed (%d of %d rows)", path,
                     w, h, e, dst->height);
        return GC_ERR_UNSUPPORTED;
    }
    return GC_OK;
}

/* BT.709 limited-range Y, U, V of an 8-bit RGB colour, as a player's decoder inverts them. */
static void bt709(const uint8_t rgb[3], int yuv[3])
{
    const double kr = 0.2126, kb = 0.0722, kg = 1.0 - kr - kb;
    double y = (kr * rgb[0] + kg * rgb[1] + kb * rgb[2]) / 255.0;
    yuv[0] = (int)(16.0 + 219.0 * y + 0.5);
    yuv[1] = (int)(128.0 + 224.0 * (rgb[2] / 255.0 - y) / (2.0 * (1.0 - kb)) + 0.5);
    yuv[2] = (int)(128.0 + 224.0 * (rgb[0] / 255.0 - y) / (2.0 * (1.0 - kr)) + 0.5);
}

/* Converts four known colours (a 2x2 grid of blocks, bottom row first as GL gives them) the
 * way every frame is converted and compares the centre of each block with BT.709: an FFmpeg
 * whose conversion is wrong (see SWS_FLAGS) is refused before a whole movie is recorded with
 * wrong colours. Blocks of 32x32 pixels keep each centre clear of the bicubic filter's reach
 * into the next block; 3 units of 255 allow swscale's fixed-point rounding. */
static enum gc_status check_conversion(struct gc_recorder *r)
{
    enum { B = 32, N = 2 * B, TOL = 3 };
    static const uint8_t colour[4][3] = {{200, 40, 30}, {40, 180, 60},   /* top: red, green */
                                         {20, 60, 220}, {230, 210, 90}}; /* bottom: blue, yellow */
    static const char *name[4] = {"red", "green", "blue", "yellow"};
    struct conv c = {NULL, 0, 0};
    AVFrame *f = av_frame_alloc();
    uint8_t *rgba = malloc(N * N * 4);
    enum gc_status st = GC_ERR_NOMEM;
    if (!f || !rgba)
        goto done;
    f->format = AV_PIX_FMT_YUV420P;
    f->width = N;
    f->height = N;
    if (av_frame_get_buffer(f, 0) < 0)
        goto done;
    for (int row = 0; row < N; row++) { /* row 0 of the buffer is the picture's bottom row */
        int y = N - 1 - row;
        for (int x = 0; x < N; x++) {
            uint8_t *p = &rgba[4 * (row * N + x)];
            memcpy(p, colour[2 * (y / B) + x / B], 3);
            p[3] = 255;
        }
    }
    st = convert(r->path, &c, rgba, N, N, 1, f);
    for (int k = 0; k < 4 && st == GC_OK; k++) {
        int x = (k % 2) * B + B / 2, y = (k / 2) * B + B / 2, want[3], got[3];
        bt709(colour[k], want);
        got[0] = f->data[0][y * f->linesize[0] + x];
        got[1] = f->data[1][y / 2 * f->linesize[1] + x / 2];
        got[2] = f->data[2][y / 2 * f->linesize[2] + x / 2];
        for (int i = 0; i < 3; i++)
            if (abs(got[i] - want[i]) > TOL) {
                gc_log_error("recording %s: this FFmpeg's swscale converts RGBA to YUV wrongly "
                             "(a %s block came out as Y %d U %d V %d, BT.709 gives %d %d %d); "
                             "the movie's colours would be wrong", r->path, name[k], got[0],
                             got[1], got[2], want[0], want[1], want[2]);
                st = GC_ERR_UNSUPPORTED;
                break;
            }
    }
done:
    if (st == GC_ERR_NOMEM)
        gc_log_error("recording %s: out of memory for the colour check", r->path);
    sws_freeContext(c.sws);
    av_frame_free(&f);
    free(rgba);
    return st;
}

/* One queued frame converted and encoded. */
static enum gc_status convert_and_encode(struct gc_recorder *r, const struct slot *s)
{
    char eb[128];
    enum gc_status st;
    int e = av_frame_make_writable(r->yuv);
    if (e < 0) {
        gc_log_error("recording %s: no writable frame for the encoder: %s", r->path,
                     av_err(e, eb, sizeof eb));
        return GC_ERR_NOMEM;
    }
    st = convert(r->path, &r->conv, s->rgba, s->w, s->h, s->bottom_up, r->yuv);
    if (st != GC_OK)
        return st;
    r->yuv->pts = s->pts;
    r->end_pts = s->pts + 1;
    r->frames++;
    return encode(r, r->yuv);
}

static void *encoder_main(void *arg)
{
    struct gc_recorder *r = arg;
    pthread_mutex_lock(&r->lock);
    for (;;) {
        struct slot *s;
        enum gc_status st = GC_OK;
        int failed;
        while (r->count == 0 && !r->closing)
            pthread_cond_wait(&r->cond, &r->lock);
        if (r->count == 0)
            break;
        s = &r->slots[r->head];
        failed = r->error != GC_OK;
        pthread_mutex_unlock(&r->lock);
        if (!failed) /* after a failure the queue is only emptied */
            st = convert_and_encode(r, s);
        pthread_mutex_lock(&r->lock);
        if (st != GC_OK && r->error == GC_OK)
            r->error = st;
        r->head = (r->head + 1) % QUEUE;
        r->count--;
        pthread_cond_broadcast(&r->cond);
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

/* FFmpeg 7 (libavformat 61) passes the bytes to write as const. */
#if LIBAVFORMAT_VERSION_MAJOR >= 61
#define IO_BYTES const uint8_t
#else
#define IO_BYTES uint8_t
#endif

/* The muxer writes through these into the descriptor outfile.h opened (a .part file, a
 * device or a pipe), so that every output goes where the same rules put it. */
static int io_write(void *opaque, IO_BYTES *buf, int size)
{
    struct gc_recorder *r = opaque;
    return gc_outfile_write(&r->out, buf, (size_t)size) ? size : AVERROR(errno);
}

static int64_t io_seek(void *opaque, int64_t offset, int whence)
{
    const int fd = ((struct gc_recorder *)opaque)->out.fd;
    struct stat sb;
    off_t at;
    if (whence & AVSEEK_SIZE)
        return fstat(fd, &sb) == 0 ? (int64_t)sb.st_size : AVERROR(errno);
    at = lseek(fd, (off_t)offset, whence & ~AVSEEK_FORCE);
    return at < 0 ? AVERROR(errno) : (int64_t)at;
}

/* Opens the output and gives the muxer a writer over it (seeking where the target can). */
static enum gc_status open_io(struct gc_recorder *r)
{
    enum { SIZE = 1 << 16 };
    unsigned char *buf;
    enum gc_status st = gc_outfile_open(&r->out);
    if (st != GC_OK)
        return st;
    buf = av_malloc(SIZE);
    r->fmt->pb = buf ? avio_alloc_context(buf, SIZE, 1, r, NULL, io_write,
                                          r->out.seekable ? io_seek : NULL)
                     : NULL;
    if (!r->fmt->pb) {
        av_free(buf);
        gc_log_error("recording %s: out of memory for the output buffer", r->path);
        return GC_ERR_NOMEM;
    }
    r->fmt->flags |= AVFMT_FLAG_CUSTOM_IO;
    return GC_OK;
}

/* Flushes and frees the muxer's writer; the error it met, or 0. */
static int close_io(struct gc_recorder *r)
{
    AVIOContext *pb = r->fmt ? r->fmt->pb : NULL;
    int e;
    if (!pb)
        return 0;
    avio_flush(pb);
    e = pb->error < 0 ? pb->error : 0;
    av_freep(&pb->buffer);
    avio_context_free(&r->fmt->pb);
    return e;
}

static void free_recorder(struct gc_recorder *r)
{
    if (!r)
        return;
    sws_freeContext(r->conv.sws);
    av_frame_free(&r->yuv);
    av_packet_free(&r->pkt);
    avcodec_free_context(&r->enc);
    if (r->fmt) {
        close_io(r);
        avformat_free_context(r->fmt);
    }
    if (r->out.fd >= 0)
        gc_outfile_end(&r->out, 0);
    for (int k = 0; k < QUEUE; k++)
        free(r->slots[k].rgba);
    free(r);
}

/* The H.264 encoder: libx264 when present, else whichever H.264 encoder this FFmpeg has. */
static const AVCodec *find_h264(void)
{
    const AVCodec *c = avcodec_find_encoder_by_name("libx264");
    return c ? c : avcodec_find_encoder(AV_CODEC_ID_H264);
}

static enum gc_status open_encoder(struct gc_recorder *r)
{
    const AVCodec *codec = find_h264();
    AVDictionary *opts = NULL;
    char eb[128], crf[16];
    int e;
    if (!codec) {
        gc_log_error("recording %s: this FFmpeg has no H.264 encoder (Debian's libavcodec "
                     "has libx264; a custom FFmpeg needs --enable-libx264)", r->path);
        return GC_ERR_UNSUPPORTED;
    }
    r->codec_name = codec->name;
    r->enc = avcodec_alloc_context3(codec);
    r->yuv = av_frame_alloc();
    r->pkt = av_packet_alloc();
    if (!r->enc || !r->yuv || !r->pkt)
        return GC_ERR_NOMEM;
    r->enc->width = r->p.width & ~1;
    r->enc->height = r->p.height & ~1;
    r->enc->pix_fmt = AV_PIX_FMT_YUV420P;
    r->enc->time_base = (AVRational){1, (int)r->p.fps};
    r->enc->framerate = (AVRational){(int)r->p.fps, 1};
    r->enc->gop_size = 2 * (int)r->p.fps; /* a key frame every 2 s: seeking in a talk */
    r->enc->max_b_frames = 2;
    r->enc->colorspace = AVCOL_SPC_BT709;
    r->enc->color_primaries = AVCOL_PRI_BT709;
    r->enc->color_trc = AVCOL_TRC_BT709;
    r->enc->color_range = AVCOL_RANGE_MPEG;
    if (r->fmt->oformat->flags & AVFMT_GLOBALHEADER)
        r->enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
    if (strcmp(codec->name, "libx264") == 0) {
        /* The window records live: the fastest preset that still looks clean; headless has
         * the time for a better one. */
        snprintf(crf, sizeof crf, "%d", r->p.crf > 0 ? r->p.crf : 18);
        av_dict_set(&opts, "preset", r->p.realtime ? "veryfast" : "medium", 0);
        av_dict_set(&opts, "crf", crf, 0);
    }
    e = avcodec_open2(r->enc, codec, &opts);
    av_dict_free(&opts);
    if (e < 0) {
        gc_log_error("recording %s: cannot open the %s encoder at %dx%d: %s", r->path,
                     codec->name, r->enc->width, r->enc->height, av_err(e, eb, sizeof eb));
        return GC_ERR_UNSUPPORTED;
    }
    r->yuv->format = AV_PIX_FMT_YUV420P;
    r->yuv->width = r->enc->width;
    r->yuv->height = r->enc->height;
    if (av_frame_get_buffer(r->yuv, 0) < 0)
        return GC_ERR_NOMEM;
    r->stream = avformat_new_stream(r->fmt, NULL);
    if (!r->stream)
        return GC_ERR_NOMEM;
    r->stream->time_base = r->enc->time_base;
    r->stream->avg_frame_rate = r->enc->framerate;
    e = avcodec_parameters_from_context(r->stream->codecpar, r->enc);
    return e < 0 ? GC_ERR_NOMEM : GC_OK;
}

enum gc_status gc_record_open(const struct gc_record_params *p, struct gc_recorder **out)
{
    struct gc_recorder *r;
    AVDictionary *mux = NULL;
    enum gc_status st;
    char eb[128];
    int e;
    *out = NULL;
    if (!p->path || !*p->path || p->width < 2 || p->height < 2 || p->fps == 0) {
        gc_log_error("recording: needs a file name, a size of at least 2x2 and a frame rate");
        return GC_ERR_INVALID;
    }
    r = calloc(1, sizeof *r);
    if (!r) {
        gc_log_error("recording %s: out of memory", p->path);
        return GC_ERR_NOMEM;
    }
    r->p = *p;
    snprintf(r->path, sizeof r->path, "%s", p->path);
    r->p.path = r->path;
    r->out.fd = -1;
    st = gc_outfile_begin(&r->out, r->path);
    if (st != GC_OK) {
        free_recorder(r);
        return st;
    }
    av_log_set_level(AV_LOG_ERROR);
    /* Asked first so that FFmpeg does not log its own line about it as well. The container
     * follows the final name; the muxer writes (and, for +faststart, reads back) the
     * .part file, renamed when the movie is finished, or the device. */
    {
        /* A device or pipe has no extension to go by (/dev/stdout): MP4, as a movie file. */
        const AVOutputFormat *container = av_guess_format(NULL, r->path, NULL);
        if (!container && r->out.direct)
            container = av_guess_format("mp4", NULL, NULL);
        e = container ? avformat_alloc_output_context2(&r->fmt, container, NULL, r->out.write)
                      : AVERROR_MUXER_NOT_FOUND;
    }
    if (e < 0 || !r->fmt) {
        gc_log_error("recording %s: no container for this file name (use .mp4, .mkv or .mov)",
                     r->path);
        free_recorder(r);
        return GC_ERR_INVALID;
    }
    st = open_encoder(r);
    if (st != GC_OK) {
        if (st == GC_ERR_NOMEM)
            gc_log_error("recording %s: out of memory for the encoder", r->path);
        free_recorder(r);
        return st;
    }
    /* Before the file is made: a refused FFmpeg leaves no empty movie behind. */
    st = check_conversion(r);
    if (st != GC_OK) {
        free_recorder(r);
        return st;
    }
    st = open_io(r);
    if (st != GC_OK) {
        free_recorder(r);
        return st;
    }
    /* The index at the front: the movie starts playing before it is fully loaded. That
     * reads the file back, which a device or a pipe cannot: there the movie is written in
     * fragments, each playable as it arrives. */
    av_dict_set(&mux, "movflags",
                r->out.direct ? "+frag_keyframe+empty_moov+default_base_moof" : "+faststart", 0);
    e = avformat_write_header(r->fmt, &mux);
    av_dict_free(&mux);
    /* A full disk shows here, before a frame is drawn (the write itself is buffered). */
    if (e >= 0)
        avio_flush(r->fmt->pb);
    if (e >= 0 && r->fmt->pb->error < 0)
        e = r->fmt->pb->error;
    if (e < 0) {
        gc_log_error("recording %s: cannot write the header: %s%s%s", r->path,
                     av_err(e, eb, sizeof eb), r->out.direct ? "" : " (removed ",
                     r->out.direct ? "" : r->out.write);
        free_recorder(r);
        return GC_ERR_IO;
    }
    pthread_mutex_init(&r->lock, NULL);
    pthread_cond_init(&r->cond, NULL);
    if (pthread_create(&r->thread, NULL, encoder_main, r) != 0) {
        gc_log_error("recording %s: cannot start the encoder thread", r->path);
        pthread_mutex_destroy(&r->lock);
        pthread_cond_destroy(&r->cond);
        free_recorder(r);
        return GC_ERR_NOMEM;
    }
    r->thread_started = 1;
    gc_log_info("recording %dx%d at %u frames/s to %s (%s)", r->enc->width, r->enc->height,
                r->p.fps, r->path, r->codec_name);
    *out = r;
    return GC_OK;
}

enum gc_status gc_record_frame(struct gc_recorder *r, const uint8_t *rgba, int w, int h,
                               int bottom_up)
{
    return gc_record_frame_at(r, rgba, w, h, bottom_up, r->next_pts);
}

enum gc_status gc_record_frame_at(struct gc_recorder *r, const uint8_t *rgba, int w, int h,
                                  int bottom_up, int64_t pts)
{
    size_t bytes = (size_t)w * (size_t)h * 4;
    struct slot *s;
    enum gc_status st;
    if (w < 1 || h < 1 || pts < r->next_pts)
        return GC_ERR_INVALID;
    /* Taken, written or dropped: the next frame comes later in the movie either way. */
    r->next_pts = pts + 1;
    pthread_mutex_lock(&r->lock);
    if (r->count == QUEUE && r->p.realtime && r->error == GC_OK) {
        r->dropped++;
        pthread_mutex_unlock(&r->lock);
        return GC_OK;
    }
    while (r->count == QUEUE && r->error == GC_OK)
        pthread_cond_wait(&r->cond, &r->lock);
    st = r->error;
    if (st != GC_OK) {
        pthread_mutex_unlock(&r->lock);
        return st;
    }
    s = &r->slots[(r->head + r->count) % QUEUE];
    pthread_mutex_unlock(&r->lock);
    /* This slot is the producer's until it is counted in. */
    if (s->cap < bytes) {
        uint8_t *m = realloc(s->rgba, bytes);
        if (!m) {
            gc_log_error("recording %s: out of memory for a %dx%d frame", r->path, w, h);
            return GC_ERR_NOMEM;
        }
        s->rgba = m;
        s->cap = bytes;
    }
    memcpy(s->rgba, rgba, bytes);
    s->w = w;
    s->h = h;
    s->bottom_up = bottom_up;
    s->pts = pts;
    pthread_mutex_lock(&r->lock);
    r->count++;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
    return GC_OK;
}

enum gc_status gc_record_close(struct gc_recorder *r, struct gc_record_stats *stats)
{
    enum gc_status st;
    char eb[128];
    int e;
    if (!r)
        return GC_OK;
    pthread_mutex_lock(&r->lock);
    r->closing = 1;
    pthread_cond_broadcast(&r->cond);
    pthread_mutex_unlock(&r->lock);
    pthread_join(r->thread, NULL);
    pthread_mutex_destroy(&r->lock);
    pthread_cond_destroy(&r->cond);
    st = r->error;
    if (st == GC_OK)
        st = encode(r, NULL);
    e = av_write_trailer(r->fmt);
    if (e >= 0)
        e = close_io(r); /* the last buffered writes */
    if (e < 0 && st == GC_OK) {
        gc_log_error("recording %s: cannot finish the file: %s", r->path,
                     av_err(e, eb, sizeof eb));
        st = GC_ERR_IO;
    }
    /* A movie appears under its name only when it plays; a failed one is removed. */
    if (gc_outfile_end(&r->out, st == GC_OK) != GC_OK && st == GC_OK)
        st = GC_ERR_IO;
    else if (st != GC_OK && !r->out.direct)
        gc_log_info("recording %s: removed the unfinished %s", r->path, r->out.write);
    if (stats) {
        stats->frames = r->frames;
        stats->dropped = r->dropped;
        stats->seconds = (double)r->end_pts / (double)r->p.fps;
    }
    if (st == GC_OK)
        gc_log_info("recorded %s: %llu frame%s, %.2f s at %u frames/s", r->path,
                    (unsigned long long)r->frames, gc_log_plural(r->frames),
                    (double)r->end_pts / (double)r->p.fps, r->p.fps);
    if (r->dropped)
        gc_log_warn("recording %s: %llu frame%s dropped because the encoder fell behind",
                    r->path, (unsigned long long)r->dropped, gc_log_plural(r->dropped));
    free_recorder(r);
    return st;
}
