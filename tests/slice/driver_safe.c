// A driver model for field slicing (issue 7): a request with 12 fields,
// device statistics (10) and configuration (10), and three threads that
// work on one request: dispatch, cancel and completion.
//
// The safe variant of driver_bug.c: cancel and completion test and set
// `completed` and `freed` under the request lock, so cancel never sees a
// freed request. Safe for every K. Proving it needs `struct
// request.completed` besides the asserted `struct request.freed`: with
// `completed` sliced, cancel may take its branch after completion.
// expect: safe
#include <pthread.h>
#include <assert.h>

struct stats {
  int rx, tx, errors, drops, retries, irqs, timeouts, resets, bytes, packets;
};
struct config {
  int mode, speed, duplex, mtu, flags, debug, prio, queue_len, timeout_ms, retry_max;
};
struct request {
  int id, status, completed, cancelled, owner, len, offset, result, refcnt, freed;
  struct stats *st;
  struct config *cfg;
  pthread_mutex_t lock;
};

struct stats dev_stats;
struct config dev_cfg;
struct request req;

void *dispatch(void *arg) {
  struct request *r = arg;
  struct stats *st = r->st;
  struct config *cfg = r->cfg;
  cfg->mode = 2;
  cfg->speed = 100;
  cfg->duplex = 1;
  cfg->queue_len = cfg->queue_len + 1;
  r->id = 7;
  r->len = 512;
  r->offset = 0;
  r->owner = 1;
  r->refcnt = r->refcnt + 1;
  r->status = 1;
  st->tx = st->tx + 1;
  st->bytes = st->bytes + r->len;
  st->packets = st->packets + 1;
  for (int i = 0; i < 2; i++) {
    st->tx = st->tx + 1;
    st->bytes = st->bytes + cfg->mtu;
    if (st->errors > cfg->retry_max)
      st->drops = st->drops + 1;
  }
  if (cfg->debug)
    st->errors = st->errors + 1;
  return 0;
}

void *cancel(void *arg) {
  struct request *r = arg;
  struct stats *st = r->st;
  struct config *cfg = r->cfg;
  st->irqs = st->irqs + 1;
  if (cfg->timeout_ms > 50)
    st->timeouts = st->timeouts + 1;
  pthread_mutex_lock(&r->lock);
  if (r->completed == 0) {
    st->retries = st->retries + 1;
    r->cancelled = 1;
    r->status = 3;
    assert(r->freed == 0);
    r->result = -1;
  }
  pthread_mutex_unlock(&r->lock);
  for (int i = 0; i < 2; i++) {
    st->retries = st->retries + 1;
    if (st->retries > cfg->retry_max)
      st->errors = st->errors + 1;
  }
  st->drops = st->drops + 1;
  return 0;
}

void *completion(void *arg) {
  struct request *r = arg;
  struct stats *st = r->st;
  struct config *cfg = r->cfg;
  for (int i = 0; i < 2; i++) {
    st->rx = st->rx + 1;
    st->irqs = st->irqs + 1;
    st->packets = st->packets + 1;
    if (cfg->prio > 2)
      cfg->queue_len = cfg->queue_len - 1;
  }
  if (r->cancelled == 0)
    r->result = r->len;
  pthread_mutex_lock(&r->lock);
  r->completed = 1;
  r->status = 2;
  r->refcnt = r->refcnt - 1;
  st->resets = st->resets + (cfg->flags & 1);
  r->freed = 1;
  pthread_mutex_unlock(&r->lock);
  r->owner = 0;
  return 0;
}

int main(void) {
  pthread_t t1, t2, t3;
  req.st = &dev_stats;
  req.cfg = &dev_cfg;
  dev_cfg.mtu = 1500;
  dev_cfg.prio = 3;
  dev_cfg.retry_max = 5;
  dev_cfg.timeout_ms = 100;
  pthread_mutex_init(&req.lock, 0);
  pthread_create(&t1, 0, dispatch, &req);
  pthread_create(&t2, 0, cancel, &req);
  pthread_create(&t3, 0, completion, &req);
  pthread_join(t1, 0);
  pthread_join(t2, 0);
  pthread_join(t3, 0);
  return 0;
}
