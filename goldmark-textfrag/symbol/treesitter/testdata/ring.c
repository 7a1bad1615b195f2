/* ring.c: a fixed-size ring buffer. */
#include <stdlib.h>
#include <string.h>

#define RING_MIN 16
#define RING_NEXT(r, i) (((i) + 1) % (r)->cap)

struct ring {
	size_t cap;
	size_t head, tail;
	unsigned char *data;
};

typedef struct ring ring_t;

typedef struct stats {
	size_t pushed;
} stats;

typedef int (*ring_visit)(unsigned char, void *);

enum ring_error { RING_OK, RING_FULL };

static int ring_full(const struct ring *r);
int ring_push(struct ring *r, unsigned char b);
void ring_free(struct ring *r);

/* Allocates a ring of at least cap bytes.
 * Returns NULL when out of memory. */
struct ring *ring_new(size_t cap)
{
	struct ring *r = calloc(1, sizeof *r);
	if (r == NULL)
		return NULL;
	r->cap = cap < RING_MIN ? RING_MIN : cap;
	r->data = malloc(r->cap);
	return r;
}

// Adds b; fails when the ring is full.
int ring_push(struct ring *r, unsigned char b)
{
	if (ring_full(r))
		return RING_FULL;
	r->data[r->tail] = b;
	r->tail = RING_NEXT(r, r->tail);
	return RING_OK;
}

static int ring_full(const struct ring *r)
{
	return RING_NEXT(r, r->tail) == r->head;
}

#ifdef RING_DEBUG
void ring_dump(const struct ring *r) { (void)r; }
#else
void ring_dump(const struct ring *r) {}
#endif
