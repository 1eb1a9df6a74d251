/* Shader files: where they live, reading them, compiling and linking with logged errors. */
/* SPDX-License-Identifier: MIT */
#include "shader.h"

#include <GL/glew.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"

static int has_shaders(const char *dir)
{
    char path[4096];
    FILE *f;
    if (snprintf(path, sizeof path, "%s/particles.vert", dir) >= (int)sizeof path)
        return 0;
    f = fopen(path, "rb");
    if (!f)
        return 0;
    fclose(f);
    return 1;
}

/* Installed layout, relative to the binary's folder; set by CMake from GNUInstallDirs. */
#ifndef GC_SHADER_REL_DIR
#define GC_SHADER_REL_DIR "../share/galaxy/shaders"
#endif

enum gc_status gc_shader_find_dir(char *dir, size_t size)
{
    static const char *const rel[] = {"shaders", GC_SHADER_REL_DIR};
    const char *env = getenv("GC_SHADER_DIR");
    char exe[4096];
    ssize_t len;
    if (env && *env) {
        if (has_shaders(env) && strlen(env) < size) {
            snprintf(dir, size, "%s", env);
            return GC_OK;
        }
        gc_log_error("GC_SHADER_DIR=%s holds no particles.vert", env);
        return GC_ERR_IO;
    }
    /* The binary's own path, not the working folder: the viewer may be started from anywhere. */
    len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = '\0';
    if (!strchr(exe, '/')) {
        gc_log_error("shaders not found: cannot read /proc/self/exe (set GC_SHADER_DIR)");
        return GC_ERR_IO;
    }
    strrchr(exe, '/')[1] = '\0';
    for (size_t k = 0; k < sizeof rel / sizeof rel[0]; k++)
        if (snprintf(dir, size, "%s%s", exe, rel[k]) < (int)size && has_shaders(dir))
            return GC_OK;
    gc_log_error("shaders not found: looked in %s%s and %s%s (set GC_SHADER_DIR)", exe, rel[0],
                 exe, rel[1]);
    return GC_ERR_IO;
}

static enum gc_status read_file(const char *path, char **out)
{
    FILE *f = fopen(path, "rb");
    long size;
    char *buf;
    *out = NULL;
    if (!f) {
        gc_log_error("cannot open shader %s", path);
        return GC_ERR_IO;
    }
    if (fseek(f, 0, SEEK_END) != 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
        size > (1 << 20)) {
        fclose(f);
        gc_log_error("cannot read shader %s", path);
        return GC_ERR_IO;
    }
    buf = malloc((size_t)size + 1);
    if (!buf) {
        fclose(f);
        return GC_ERR_NOMEM;
    }
    if (fread(buf, 1, (size_t)size, f) != (size_t)size) {
        free(buf);
        fclose(f);
        gc_log_error("short read on shader %s", path);
        return GC_ERR_IO;
    }
    buf[size] = '\0';
    fclose(f);
    *out = buf;
    return GC_OK;
}

static enum gc_status compile(const char *path, GLenum type, GLuint *out)
{
    char *src;
    GLint ok = 0;
    GLuint sh;
    enum gc_status st = read_file(path, &src);
    if (st != GC_OK)
        return st;
    sh = glCreateShader(type);
    glShaderSource(sh, 1, (const GLchar *const *)&src, NULL);
    glCompileShader(sh);
    free(src);
    glGetShaderiv(sh, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[4096] = "";
        glGetShaderInfoLog(sh, sizeof log, NULL, log);
        gc_log_error("%s: compile failed:\n%s", path, log);
        glDeleteShader(sh);
        return GC_ERR_GL;
    }
    *out = sh;
    return GC_OK;
}

enum gc_status gc_shader_load(const char *dir, const char *name, unsigned *program)
{
    return gc_shader_load_pair(dir, name, name, program);
}

enum gc_status gc_shader_load_pair(const char *dir, const char *vert, const char *frag,
                                   unsigned *program)
{
    char vpath[4096], fpath[4096];
    GLuint vs = 0, fs = 0, prog;
    GLint ok = 0;
    enum gc_status st;
    *program = 0;
    snprintf(vpath, sizeof vpath, "%s/%s.vert", dir, vert);
    snprintf(fpath, sizeof fpath, "%s/%s.frag", dir, frag);
    st = compile(vpath, GL_VERTEX_SHADER, &vs);
    if (st != GC_OK)
        return st;
    st = compile(fpath, GL_FRAGMENT_SHADER, &fs);
    if (st != GC_OK) {
        glDeleteShader(vs);
        return st;
    }
    prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    glGetProgramiv(prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[4096] = "";
        glGetProgramInfoLog(prog, sizeof log, NULL, log);
        gc_log_error("%s + %s: link failed:\n%s", vpath, fpath, log);
        glDeleteProgram(prog);
        return GC_ERR_GL;
    }
    *program = prog;
    return GC_OK;
}
