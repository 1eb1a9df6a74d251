/* Internal to the sim library: rank 0 announcing its collective simulation calls to the other ranks. */
/* SPDX-License-Identifier: MIT */
#ifndef GC_SIM_RANKS_H
#define GC_SIM_RANKS_H

#include "sim.h"

/* The calls that involve every rank, in the order rank 0 makes them. */
enum gc_sim_op {
    GC_SIM_OP_INIT = 1, /* then the parameters and the bodies */
    GC_SIM_OP_RESET,    /* then the bodies */
    GC_SIM_OP_ADVANCE,  /* to time arg */
    GC_SIM_OP_SET_DT,   /* to arg */
    GC_SIM_OP_DOWNLOAD, /* also what gc_sim_export does over several ranks */
    GC_SIM_OP_MEASURE,
    GC_SIM_OP_FREE,
    GC_SIM_OP_STOP      /* no more simulations: followers return */
};

/* 1 when s is rank 0 of several and not already inside an announced call: its collective
 * calls must then be announced (gc_sim_announce) before it does its own part. */
int gc_sim_leads(const struct gc_sim *s);
/* Rank 0: broadcasts the next call (and for INIT/RESET its parameters and bodies). A
 * failure leaves the followers somewhere in it: the communicator is marked broken. */
enum gc_status gc_sim_announce(struct gc_sim *s, enum gc_sim_op op, double arg,
                               const struct gc_bodies *bodies);
/* After a collective call that failed on this rank: the ranks stopped together when the
 * failure was agreed (an init agreement, or an error the force layer shared); otherwise the
 * others may be waiting in a collective this rank will never reach, and the communicator
 * is marked broken, so main ends the run (gc_comm_abort). Returns st. */
enum gc_status gc_sim_settle(struct gc_sim *s, enum gc_status st);

#endif
