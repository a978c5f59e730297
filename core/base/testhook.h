/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Test hooks: the one place where the environment lets a test break
 * decorum on purpose.  Nothing else in core, store or tui reads a
 * DECORUM_TEST_* variable.
 */
#ifndef DC_TESTHOOK_H
#define DC_TESTHOOK_H

/*
 * A crash at a named point: when $DECORUM_TEST_CRASH equals point, the
 * process kills itself with SIGKILL right here, as a power cut would.
 * The points:
 *   after-commit  dc_mirror_flush(), after the store committed a change
 *                 and before notmuch is written (tests/cli/test-case.sh)
 * and in dc_sync() (tests/faults/test-sync-kill.sh):
 *   sync-after-fetch    the remote fetched, nothing imported
 *   sync-mid-import     after each envelope applied, inside the store's
 *                       transaction
 *   sync-before-commit  imported, shared envelopes written as git commits,
 *                       the store's transaction not committed
 *   sync-after-commit   the store committed, nothing pushed
 *   sync-before-push    this member's ref moved in STORE-DIR/sync.git,
 *                       not pushed
 *   sync-after-push     pushed, before decorum says so
 */
void dc_test_crash_point(const char *point);

#endif
