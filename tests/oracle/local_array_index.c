// expect: successful
/* A ring buffer with two writers (one is main) and a reader that counts
   what it reads in its own local array at a computed index. No run fails:
   values leave the ring in the order they went in. The reader's array is
   thread-local memory; on the SMT route an access at a symbolic index
   once got round copies, and its reads came back as guesses. */
#include "prelude.h"
typedef struct _ring {
    long reader;
    long q[ 4 ];
    long writer;
} Ring;
void ring_enqueue( Ring *r, long x ) {
    while ( (r->writer + 1) % 4 == r->reader );
    r->q[ r->writer ] = x;
    r->writer = (r->writer + 1) % 4;
}
long ring_dequeue( Ring *r ) {
    long x = r->q[ r->reader ];
    r->reader = (r->reader + 1) % 4;
    return x;
}
int ring_empty( Ring *r ) { return r->reader == r->writer; }
void *reader_two( void *arg ) {
    Ring *r = arg;
    long val = 0, i = 0;
    int read[ 8 ] = { 0 };
    while ( i < 1 ) {
        if ( ring_empty( r ) )
            continue;
        val = ring_dequeue( r );
        assert(val > 0);
        assert(val <= 8);
        ++read[ val - 1 ];
        for ( int i = 0; i < val; ++i ) {
            assert(read[ i ] <= 2);
            assert(read[ i ] > 0);
        }
        ++i;
    }
    return 0;
}
pthread_mutex_t mutex;
void *writer_fn( void *arg ) {
    Ring *r = arg;
    for ( long i = 0; i < 2; ++i ) {
        pthread_mutex_lock( &mutex );
        ring_enqueue( r, i + 1 );
        pthread_mutex_unlock( &mutex );
    }
    return 0;
}
int main() {
    pthread_t reader, writer;
    Ring r;
    r.reader = r.writer = 0;
    pthread_create( &reader, ((void *)0), &reader_two, &r );
    pthread_create( &writer, ((void *)0), &writer_fn, &r );
    writer_fn( &r );
    pthread_join( reader, ((void *)0) );
    pthread_join( writer, ((void *)0) );
}
