// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for ftrace-mux's interned tracer sets (ftrace_mux_sets.c):
 * interning, transitions and their cache, reaping, and what happens when
 * no set can be made.  The IDs are made up: sets know nothing of ops.
 */
#include <kunit/test.h>
#include <linux/ftrace.h>

#include "ftrace_internal.h"
#include "ftrace_mux_internal.h"
#include "ftrace_mux_sets.h"

/* IDs far above any real one, so the sets are the tests' own. */
#define T(n)	(0x7fff0000U + (n))

/*
 * The tests hold their sets by pins, as records would hold them: a set
 * that nothing holds may be reaped whenever a new one is made.
 */
static u32 pinned[16];
static int nr_pinned;

static u32 pin(u32 index)
{
	if (!WARN_ON_ONCE(nr_pinned == ARRAY_SIZE(pinned))) {
		ftrace_mux_set_pin(index);
		pinned[nr_pinned++] = index;
	}
	return index;
}

static void unpin_all(void)
{
	while (nr_pinned)
		ftrace_mux_set_unpin(pinned[--nr_pinned]);
}

static void expect_ids(struct kunit *test, u32 index, const u32 *ids, unsigned int nr)
{
	struct ftrace_mux_set *set = ftrace_mux_set_lookup(index);
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, set);
	KUNIT_ASSERT_EQ(test, set->nr, nr);
	KUNIT_EXPECT_EQ(test, set->index, index);
	for (i = 0; i < nr; i++)
		KUNIT_EXPECT_EQ(test, set->ids[i], ids[i]);
}

/* One set per content, whichever way it is reached; sets stay sorted. */
static void interning(struct kunit *test)
{
	u32 a, b, ab, ba, abc, again;

	mutex_lock(&ftrace_lock);
	KUNIT_EXPECT_EQ(test, ftrace_mux_set_intern(NULL, 0), FTRACE_MUX_SET_EMPTY);
	a = pin(ftrace_mux_set_with(FTRACE_MUX_SET_EMPTY, T(1)));
	b = pin(ftrace_mux_set_with(FTRACE_MUX_SET_EMPTY, T(2)));
	ab = pin(ftrace_mux_set_with(a, T(2)));
	ba = ftrace_mux_set_with(b, T(1));
	abc = pin(ftrace_mux_set_with(ab, T(3)));
	KUNIT_EXPECT_NE(test, a, b);
	KUNIT_EXPECT_EQ(test, ab, ba);
	expect_ids(test, ab, (u32 []){ T(1), T(2) }, 2);
	expect_ids(test, abc, (u32 []){ T(1), T(2), T(3) }, 3);
	KUNIT_EXPECT_EQ(test, ftrace_mux_set_intern((u32 []){ T(1), T(2), T(3) }, 3), abc);
	/* Adding a member or taking out a stranger changes nothing. */
	KUNIT_EXPECT_EQ(test, ftrace_mux_set_with(ab, T(1)), ab);
	KUNIT_EXPECT_EQ(test, ftrace_mux_set_without(ab, T(3)), ab);
	/* Out of the middle, then down to nothing. */
	KUNIT_EXPECT_EQ(test, ftrace_mux_set_intern((u32 []){ T(1), T(3) }, 2),
			ftrace_mux_set_without(abc, T(2)));
	again = ftrace_mux_set_without(ftrace_mux_set_without(ab, T(1)), T(2));
	KUNIT_EXPECT_EQ(test, again, FTRACE_MUX_SET_EMPTY);
	unpin_all();
	ftrace_mux_reap();
	mutex_unlock(&ftrace_lock);
}

/*
 * A walk over many records, as an update makes: from a few sets to a few
 * others, the cached transition answers and no set is made twice.
 */
static void transitions_cached(struct kunit *test)
{
	unsigned long live0, live1, dead;
	u32 from[4], to[4], t;
	int i, r;

	mutex_lock(&ftrace_lock);
	/* What is left live now is held, so only these tests' sets move. */
	ftrace_mux_reap();
	ftrace_mux_sets_count(&live0, &dead);
	from[0] = FTRACE_MUX_SET_EMPTY;
	for (i = 1; i < 4; i++)
		from[i] = pin(ftrace_mux_set_with(from[i - 1], T(10 + i)));
	for (i = 0; i < 4; i++)
		to[i] = pin(ftrace_mux_set_with(from[i], T(20)));
	ftrace_mux_sets_count(&live1, &dead);
	/* 3 "from" sets and 4 "to" sets */
	KUNIT_EXPECT_EQ(test, live1, live0 + 7);
	for (r = 0; r < 50000; r++) {
		i = r % 4;
		t = ftrace_mux_set_with(from[i], T(20));
		if (t != to[i]) {
			KUNIT_FAIL(test, "record %d: %u, not %u", r, t, to[i]);
			break;
		}
		KUNIT_EXPECT_EQ(test, ftrace_mux_set_without(t, T(20)), from[i]);
	}
	ftrace_mux_sets_count(&live1, &dead);
	KUNIT_EXPECT_EQ(test, live1, live0 + 7);
	unpin_all();
	ftrace_mux_reap();
	ftrace_mux_sets_count(&live1, &dead);
	KUNIT_EXPECT_EQ(test, live1, live0);
	mutex_unlock(&ftrace_lock);
}

/*
 * A set no record holds goes when the update ends; its index and memory
 * stay until the grace periods have passed, and no cached transition
 * leads to it afterwards.
 */
static void reaping(struct kunit *test)
{
	struct ftrace_mux_set *set;
	unsigned long live, dead;
	u32 a, ab, ab2;

	mutex_lock(&ftrace_lock);
	a = pin(ftrace_mux_set_with(FTRACE_MUX_SET_EMPTY, T(30)));
	ab = ftrace_mux_set_with(a, T(31));
	ftrace_mux_reap();
	/* ab had no user: reaped, still readable */
	set = ftrace_mux_set_lookup(ab);
	KUNIT_ASSERT_NOT_NULL(test, set);
	KUNIT_EXPECT_TRUE(test, set->reaped);
	KUNIT_EXPECT_FALSE(test, ftrace_mux_set_lookup(a)->reaped);
	ftrace_mux_sets_count(&live, &dead);
	KUNIT_EXPECT_GE(test, dead, 1UL);
	/* The transition is made again, to a new set. */
	ab2 = ftrace_mux_set_with(a, T(31));
	KUNIT_EXPECT_NE(test, ab2, ab);
	KUNIT_EXPECT_FALSE(test, ftrace_mux_set_lookup(ab2)->reaped);
	unpin_all();
	ftrace_mux_reap();
	mutex_unlock(&ftrace_lock);

	ftrace_mux_reclaim_flush();
	mutex_lock(&ftrace_lock);
	KUNIT_EXPECT_NULL(test, ftrace_mux_set_lookup(ab));
	ftrace_mux_sets_count(&live, &dead);
	KUNIT_EXPECT_EQ(test, dead, 0UL);
	mutex_unlock(&ftrace_lock);
}

/*
 * No index left (the same path as no memory): a set that exists is still
 * found, a new one is "unknown", and "unknown" stays unknown.
 */
static void exhaustion(struct kunit *test)
{
	u32 a, ab, none;

	mutex_lock(&ftrace_lock);
	a = pin(ftrace_mux_set_with(FTRACE_MUX_SET_EMPTY, T(40)));
	ftrace_mux_sets_limit(0);
	KUNIT_EXPECT_EQ(test, ftrace_mux_set_with(FTRACE_MUX_SET_EMPTY, T(40)), a);
	KUNIT_EXPECT_EQ(test, ftrace_mux_set_intern((u32 []){ T(40) }, 1), a);
	none = ftrace_mux_set_with(a, T(41));
	KUNIT_EXPECT_EQ(test, none, FTRACE_MUX_SET_UNKNOWN);
	KUNIT_EXPECT_NULL(test, ftrace_mux_set_lookup(none));
	KUNIT_EXPECT_EQ(test, ftrace_mux_set_with(none, T(42)), FTRACE_MUX_SET_UNKNOWN);
	KUNIT_EXPECT_EQ(test, ftrace_mux_set_without(none, T(40)), FTRACE_MUX_SET_UNKNOWN);
	/* Taking the last one out needs no new set. */
	KUNIT_EXPECT_EQ(test, ftrace_mux_set_without(a, T(40)), FTRACE_MUX_SET_EMPTY);
	ftrace_mux_sets_limit(U32_MAX - 1);
	ab = ftrace_mux_set_with(a, T(41));
	KUNIT_EXPECT_NE(test, ab, FTRACE_MUX_SET_UNKNOWN);
	expect_ids(test, ab, (u32 []){ T(40), T(41) }, 2);
	unpin_all();
	ftrace_mux_reap();
	mutex_unlock(&ftrace_lock);
}

static struct kunit_case ftrace_mux_sets_cases[] = {
	KUNIT_CASE(interning),
	KUNIT_CASE(transitions_cached),
	KUNIT_CASE_SLOW(reaping),
	KUNIT_CASE(exhaustion),
	{}
};

static struct kunit_suite ftrace_mux_sets_suite = {
	.name = "ftrace_mux_sets",
	.test_cases = ftrace_mux_sets_cases,
};
kunit_test_suite(ftrace_mux_sets_suite);

MODULE_DESCRIPTION("KUnit tests for ftrace-mux's tracer sets");
MODULE_LICENSE("GPL");
