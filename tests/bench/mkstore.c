// SPDX-License-Identifier: GPL-3.0-or-later
/*
 * mkstore STORE CASES EVENTS [FIRST [ACTOR]]: a case store for the report benchmark
 * (P5), written through decorum's own core/case/case.c and store/ code, so
 * that the schema, the migrations and the hash chain are exactly decorum's.
 * FIRST (default 0) numbers the cases from there, so that several runs into
 * one store, or into the stores of several sync members (P10), open
 * distinct threads; ACTOR, a member of the store's committee, writes every
 * event (in a store with members, the default actors may change nothing).
 *
 * CASES threads are tagged once each (opening a case), then tagged again
 * with a note until there are EVENTS events; dates are spread over 2026
 * by a fixed linear congruential sequence, so the store is the same on
 * every run.  Linked against the objects in build/ (tests/bench/bench.py
 * compiles it); not part of the program.
 */
#include <stdio.h>
#include <stdlib.h>

#include "core/case/case.h"
#include "store/store.h"

static unsigned long long lcg = 20260101;

static unsigned
next(unsigned n)
{
	lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(lcg >> 33) % n;
}

int
main(int argc, char **argv)
{
	const int64_t year = 1767225600; /* 2026-01-01T00:00:00Z */
	dc_error_t err = { 0 };
	dc_store_t *s = NULL;
	long cases, events, first, i;
	int64_t *opened;

	if (argc < 4 || argc > 6) {
		fprintf(stderr,
			"usage: mkstore STORE CASES EVENTS [FIRST [ACTOR]]\n");
		return 2;
	}
	cases = atol(argv[2]);
	events = atol(argv[3]);
	first = argc >= 5 ? atol(argv[4]) : 0;
	opened = calloc(cases, sizeof(*opened));
	if (!opened || dc_store_open(argv[1], &s, &err) != DC_OK) {
		fprintf(stderr, "mkstore: %s\n", err.msg);
		return 3;
	}
	if (argc == 6)
		dc_store_set_viewer(s, argv[5]);
	for (i = 0; i < events; i++) {
		long c = i < cases ? i : (long)next(cases);
		char tid[32], subject[64], note[64], mid[64];
		const char *mids[2] = { mid, NULL };
		dc_tag_request_t req = { 0 };
		int64_t id = 0;
		int created = 0;

		if (i < cases)
			opened[c] = year + (int64_t)c * (334 * 86400 / cases);
		snprintf(tid, sizeof(tid), "%016lx", 0x100000L + first + c);
		snprintf(subject, sizeof(subject), "Report %ld", first + c);
		snprintf(note, sizeof(note), "follow-up %ld", i);
		snprintf(mid, sizeof(mid), "report-%ld@bench.invalid",
			 first + c);
		req.thread_id = tid;
		req.message_ids = mids;
		req.kind = (dc_kind_t)(c % 3);
		req.note = i < cases ? NULL : note;
		req.actor = argc == 6 ? argv[5]
			    : c % 2   ? "maintainer@kernel.invalid"
				      : "committee@kernel.invalid";
		req.subject = subject;
		req.reported_at = opened[c] - 3600;
		req.now = opened[c] + (i < cases ? 0 : next(30 * 86400));
		if (dc_case_tag(s, &req, &id, &created, &err) != DC_OK) {
			fprintf(stderr, "mkstore: event %ld: %s\n", i, err.msg);
			return 3;
		}
	}
	dc_store_close(s);
	free(opened);
	return 0;
}
