/*
 * Write and read bandwidth of one shared SION container written through SIONlib's own C library
 * (MPI API: sion_paropen_mpi / sion_fwrite / sion_fread / sion_parclose_mpi) against C
 * file-per-process and against one shared plain file, for benchmarks/sion-bandwidth.sh. The counterpart of
 * org.quire.benchmarks.SionBandwidth: the same steps, the same bytes, the same result lines.
 *
 *   mpirun -n N sionlib-bandwidth DIRECTORY BYTES_PER_RANK WRITE_SIZE CHUNK_SIZE REPEAT [FS_BLOCK_SIZE]
 *   mpirun -n N sionlib-bandwidth --check-write FILE BYTES_PER_RANK WRITE_SIZE CHUNK_SIZE
 *   mpirun -n N sionlib-bandwidth --check-read FILE BYTES_PER_RANK WRITE_SIZE
 *
 * Benchmark mode: every rank writes BYTES_PER_RANK zero bytes in writes of WRITE_SIZE bytes, once
 * into DIRECTORY/bandwidth.sionlib (one task per rank, requested chunk CHUNK_SIZE, FS_BLOCK_SIZE
 * passed to SIONlib, default -1: SIONlib takes the file system's block size), once into its own
 * file DIRECTORY/bandwidth.cfpp.RANK and once into its own range of DIRECTORY/bandwidth.cshared
 * (pwrite, no format); first with fsync, then without; after the fsync'd writes
 * all three are read back, after dropping the page cache (cold) and again at once (warm). Rank 0
 * prints one line per step:
 *
 *   result method=sionlib op=write_fsync ranks=4 write_size=65536 bytes=1073741824 seconds=2.345
 *   phases method=sionlib op=write_fsync ranks=4 write_size=65536 open=0.004 data=2.300 close=0.041
 *
 * The phases line splits the step as SionBandwidth does (each phase the slowest rank's): open, the
 * writes or reads (with the fsync), close.
 *
 * SIONlib 1.7.6 has no fsync of its own: with fsync every rank flushes its FILE stream and
 * fsyncs before sion_parclose_mpi, and after the close rank 0 fsyncs the file once more for the
 * metadata the close wrote (the durability Quire's fsyncOnClose gives).
 *
 * Check modes (not timed): every rank r writes (or expects) BYTES_PER_RANK bytes of value r + 1,
 * so that a container written by one library and read by the other shows the same bytes in the
 * same tasks.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mpi.h>
#include <sion.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int rank, size;
/* now() when the current step's open returned and when its close began */
static double opened, closing;

static void fail(const char *what, const char *file) {
  fprintf(stderr, "sionlib-bandwidth: rank %d: %s: %s%s%s\n", rank, file, what, errno ? ": " : "",
          errno ? strerror(errno) : "");
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec / 1e9;
}

/* Opens FILE for writing through SIONlib, one task per rank; returns the SION id. */
static int sion_open_write(const char *file, int64_t chunk, int32_t fs_block_size) {
  int files = 1, global_rank = rank;
  MPI_Comm local;
  sion_int64 chunk_size = chunk;
  sion_int32 block = fs_block_size;
  FILE *stream;
  char *new_name;
  int sid = sion_paropen_mpi(file, "bw", &files, MPI_COMM_WORLD, &local, &chunk_size, &block, &global_rank,
                             &stream, &new_name);
  if (sid < 0) fail("sion_paropen_mpi for writing failed", file);
  return sid;
}

static int sion_open_read(const char *file) {
  int files = 0, global_rank = rank;
  MPI_Comm local;
  sion_int64 chunk_size = 0;
  sion_int32 block = 0;
  FILE *stream;
  char *new_name;
  int sid = sion_paropen_mpi(file, "br", &files, MPI_COMM_WORLD, &local, &chunk_size, &block, &global_rank,
                             &stream, &new_name);
  if (sid < 0) fail("sion_paropen_mpi for reading failed", file);
  return sid;
}

static void sion_write_all(int sid, const char *file, const char *buffer, size_t write_size, int64_t bytes) {
  for (int64_t done = 0; done < bytes; done += write_size) {
    if (sion_fwrite(buffer, 1, write_size, sid) != write_size) fail("sion_fwrite wrote less", file);
  }
}

/* Reads the rank's task to its end in reads of at most WRITE_SIZE bytes (never across a chunk's
 * end, as SIONlib's sion_fread requires); returns the bytes read, calling CHECK on every piece. */
static int64_t sion_read_all(int sid, const char *file, char *buffer, size_t write_size,
                             void (*check)(const char *, size_t, const char *)) {
  int64_t total = 0;
  while (!sion_feof(sid)) {
    sion_int64 available = sion_bytes_avail_in_block(sid);
    size_t want = available < (sion_int64) write_size ? (size_t) available : write_size;
    if (sion_fread(buffer, 1, want, sid) != want) fail("sion_fread read less", file);
    if (check) check(buffer, want, file);
    total += want;
  }
  return total;
}

static void sion_fsync_data(int sid, const char *file) {
  FILE *stream = sion_get_fp(sid);
  if (stream != NULL && fflush(stream) != 0) fail("fflush", file);
  int fd = stream != NULL ? fileno(stream) : sion_get_fd(sid); /* ANSI mode (the default) or POSIX mode */
  if (fsync(fd) != 0) fail("fsync", file);
}

static void fsync_path(const char *file) {
  int fd = open(file, O_RDONLY);
  if (fd < 0 || fsync(fd) != 0 || close(fd) != 0) fail("fsync after close", file);
}

/* SIONLIB: the container through SIONlib; CFPP: each rank its own file; CSHARED: one file without
 * any format, rank r writing and reading bytes [r * BYTES_PER_RANK, (r + 1) * BYTES_PER_RANK) with
 * pwrite/pread: what the kernel charges for sharing one file, apart from any library. */
enum method { SIONLIB, CFPP, CSHARED, METHODS };
static const char *method_label[] = {"sionlib", "cfpp", "cshared"};

struct bench {
  char container[4096], own_file[4096], shared_file[4096];
  int64_t bytes_per_rank, chunk;
  size_t write_size;
  int32_t fs_block_size;
  char *buffer;
};

static void write_step(struct bench *b, enum method m, int fsync_data, int64_t bytes) {
  if (m == SIONLIB) {
    int sid = sion_open_write(b->container, b->chunk, b->fs_block_size);
    opened = now();
    sion_write_all(sid, b->container, b->buffer, b->write_size, bytes);
    if (fsync_data) sion_fsync_data(sid, b->container);
    closing = now();
    if (sion_parclose_mpi(sid) != SION_SUCCESS) fail("sion_parclose_mpi failed", b->container);
    if (fsync_data && rank == 0) fsync_path(b->container);
  } else {
    /* the shared file does not exist here (deleted after every step), so no rank truncates another's bytes */
    const char *file = m == CFPP ? b->own_file : b->shared_file;
    off_t start = m == CFPP ? 0 : (off_t) rank * b->bytes_per_rank;
    int fd = open(file, O_CREAT | O_WRONLY | (m == CFPP ? O_TRUNC : 0), 0644);
    if (fd < 0) fail("open for writing", file);
    opened = now();
    for (int64_t done = 0; done < bytes; done += b->write_size) {
      if (pwrite(fd, b->buffer, b->write_size, start + done) != (ssize_t) b->write_size) fail("short write", file);
    }
    if (fsync_data && fsync(fd) != 0) fail("fsync", file);
    closing = now();
    if (close(fd) != 0) fail("close", file);
  }
}

static void read_step(struct bench *b, enum method m, int64_t bytes) {
  int64_t total = 0;
  if (m == SIONLIB) {
    int sid = sion_open_read(b->container);
    opened = now();
    total = sion_read_all(sid, b->container, b->buffer, b->write_size, NULL);
    closing = now();
    if (sion_parclose_mpi(sid) != SION_SUCCESS) fail("sion_parclose_mpi after reading failed", b->container);
  } else {
    const char *file = m == CFPP ? b->own_file : b->shared_file;
    off_t start = m == CFPP ? 0 : (off_t) rank * b->bytes_per_rank;
    int fd = open(file, O_RDONLY);
    if (fd < 0) fail("open for reading", file);
    opened = now();
    ssize_t n = 1;
    while (total < bytes && (n = pread(fd, b->buffer, b->write_size, start + total)) > 0) total += n;
    closing = now();
    if (n < 0) fail("read", file);
    close(fd);
  }
  if (total != bytes) {
    fprintf(stderr, "sionlib-bandwidth: rank %d read %lld bytes back with %s, wrote %lld\n", rank, (long long) total,
            method_label[m], (long long) bytes);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

/* Times one step from a common barrier; rank 0 prints the slowest rank's time and the slowest
 * rank's time in each phase. */
static void measure(struct bench *b, enum method m, const char *op, int fsync_data, int is_read) {
  MPI_Barrier(MPI_COMM_WORLD);
  double start = now();
  if (is_read) read_step(b, m, b->bytes_per_rank);
  else write_step(b, m, fsync_data, b->bytes_per_rank);
  double end = now();
  double mine[4] = {end - start, opened - start, closing - opened, end - closing}, slowest[4];
  MPI_Reduce(mine, slowest, 4, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("result method=%s op=%s ranks=%d write_size=%zu bytes=%lld seconds=%.6f\n", method_label[m], op, size,
           b->write_size, (long long) (b->bytes_per_rank * size), slowest[0]);
    printf("phases method=%s op=%s ranks=%d write_size=%zu open=%.6f data=%.6f close=%.6f\n", method_label[m], op,
           size, b->write_size, slowest[1], slowest[2], slowest[3]);
    fflush(stdout);
  }
}

/* Rank 0 writes dirty pages back (untimed), then everyone waits for it. */
static void flush_then_barrier(void) {
  if (rank == 0) sync();
  MPI_Barrier(MPI_COMM_WORLD);
}

static int drop_page_cache(void) {
  int dropped = 0;
  if (rank == 0) {
    sync();
    int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
    dropped = fd >= 0 && write(fd, "3", 1) == 1;
    if (fd >= 0) close(fd);
  }
  MPI_Bcast(&dropped, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return dropped;
}

static void delete_files(struct bench *b) {
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    unlink(b->container);
    unlink(b->shared_file);
  }
  unlink(b->own_file);
}

static void bench(struct bench *b, int repeat) {
  enum method order[METHODS];
  for (int m = 0; m < METHODS; m++) order[m] = repeat % 2 == 0 ? (enum method) m : (enum method) (METHODS - 1 - m);
  for (int m = 0; m < METHODS; m++) { /* warm-up: one untimed write and read per method */
    write_step(b, order[m], 0, b->write_size);
    read_step(b, order[m], b->write_size);
  }
  delete_files(b);
  for (int fsync_data = 1; fsync_data >= 0; fsync_data--) {
    for (int m = 0; m < METHODS; m++) {
      flush_then_barrier();
      measure(b, order[m], fsync_data ? "write_fsync" : "write", fsync_data, 0);
    }
    if (fsync_data) {
      for (int m = 0; m < METHODS; m++) {
        if (drop_page_cache()) measure(b, order[m], "read_cold", 0, 1);
        else if (rank == 0) printf("note drop_caches refused: no cold read\n");
        measure(b, order[m], "read_warm", 0, 1);
      }
    }
    delete_files(b);
  }
  flush_then_barrier();
}

static void expect_rank_pattern(const char *piece, size_t n, const char *file) {
  for (size_t i = 0; i < n; i++) {
    if ((unsigned char) piece[i] != (unsigned char) (rank + 1)) {
      fprintf(stderr, "sionlib-bandwidth: %s: task %d holds byte %d, expected %d\n", file, rank,
              (unsigned char) piece[i], rank + 1);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
}

static int64_t parse_size(const char *text, const char *name) {
  char *end;
  long long value = strtoll(text, &end, 10);
  if (*end != '\0' || value <= 0) {
    if (rank == 0) fprintf(stderr, "sionlib-bandwidth: %s must be a positive integer, got '%s'\n", name, text);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return value;
}

static void usage(void) {
  if (rank == 0) {
    fprintf(stderr, "usage: sionlib-bandwidth DIRECTORY BYTES_PER_RANK WRITE_SIZE CHUNK_SIZE REPEAT [FS_BLOCK_SIZE]\n"
                    "       sionlib-bandwidth --check-write FILE BYTES_PER_RANK WRITE_SIZE CHUNK_SIZE\n"
                    "       sionlib-bandwidth --check-read FILE BYTES_PER_RANK WRITE_SIZE\n");
  }
  MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int check_write = argc == 6 && strcmp(argv[1], "--check-write") == 0;
  int check_read = argc == 5 && strcmp(argv[1], "--check-read") == 0;
  if (!check_write && !check_read && argc != 6 && argc != 7) usage();
  const char *path = check_write || check_read ? argv[2] : argv[1];
  struct bench b = {0};
  int first = check_write || check_read ? 3 : 2;
  b.bytes_per_rank = parse_size(argv[first], "BYTES_PER_RANK");
  b.write_size = (size_t) parse_size(argv[first + 1], "WRITE_SIZE");
  b.chunk = check_read ? 0 : parse_size(argv[first + 2], "CHUNK_SIZE");
  b.fs_block_size = argc == 7 ? (int32_t) strtol(argv[6], NULL, 10) : -1;
  if (b.bytes_per_rank % (int64_t) b.write_size != 0) {
    if (rank == 0) fprintf(stderr, "sionlib-bandwidth: BYTES_PER_RANK must be a multiple of WRITE_SIZE\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  if (posix_memalign((void **) &b.buffer, 4096, b.write_size) != 0) fail("out of memory", path);
  memset(b.buffer, check_write || check_read ? rank + 1 : 0, b.write_size);
  if (check_write) {
    int sid = sion_open_write(path, b.chunk, -1);
    sion_write_all(sid, path, b.buffer, b.write_size, b.bytes_per_rank);
    if (sion_parclose_mpi(sid) != SION_SUCCESS) fail("sion_parclose_mpi failed", path);
  } else if (check_read) {
    int sid = sion_open_read(path);
    int64_t total = sion_read_all(sid, path, b.buffer, b.write_size, expect_rank_pattern);
    if (sion_parclose_mpi(sid) != SION_SUCCESS) fail("sion_parclose_mpi after reading failed", path);
    if (total != b.bytes_per_rank) {
      fprintf(stderr, "sionlib-bandwidth: %s: task %d holds %lld bytes, expected %lld\n", path, rank,
              (long long) total, (long long) b.bytes_per_rank);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (rank == 0) printf("check SIONlib read %d tasks of %lld bytes of value rank+1 from %s\n", size,
                          (long long) b.bytes_per_rank, path);
  } else {
    snprintf(b.container, sizeof b.container, "%s/bandwidth.sionlib", path);
    snprintf(b.own_file, sizeof b.own_file, "%s/bandwidth.cfpp.%d", path, rank);
    snprintf(b.shared_file, sizeof b.shared_file, "%s/bandwidth.cshared", path);
    bench(&b, atoi(argv[5]));
  }
  free(b.buffer);
  MPI_Finalize();
  return 0;
}
