/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * gzip for recordings, shared by the recorder (record.c) and the replay
 * (replay_index.c): a reader of a file's text, compressed or not, and a
 * writer that appends flushed lines to a compressed file.
 */
#ifndef STALLTOP_GZIO_H
#define STALLTOP_GZIO_H

#include <stdbool.h>
#include <stddef.h>

struct gzio_reader;
struct gzio_writer;

/* Read fd (not taken: close it yourself); NULL when out of memory. */
struct gzio_reader *gzio_reader_new(int fd);
/*
 * Up to size bytes of text into out: inflated when the file starts with
 * the gzip magic, else as it is. 0 at the end, or where reading stopped
 * (see gzio_error()); what was inflated before damage comes out first.
 */
size_t gzio_read(struct gzio_reader *z, char *out, size_t size);
/*
 * Call wait(arg, fd) before each read of the file: it returns 0 to read,
 * or -1 with errno set to stop reading (gzio_error() then Z_ERRNO).
 */
void gzio_reader_set_wait(struct gzio_reader *z, int (*wait)(void *, int),
			  void *arg);
/* The file is compressed (known after the first gzio_read()). */
bool gzio_compressed(const struct gzio_reader *z);
/*
 * Why reading stopped, as zlib says it: Z_OK the end; Z_BUF_ERROR cut
 * short; Z_DATA_ERROR damaged; Z_ERRNO a read error (errno);
 * Z_MEM_ERROR out of memory.
 */
int gzio_error(const struct gzio_reader *z);
/* The errno of a Z_ERRNO. */
int gzio_errno(const struct gzio_reader *z);
void gzio_reader_free(struct gzio_reader *z);

/*
 * Append a gzip member to fd, taken on success. NULL with errno set
 * (ENOMEM) on failure; fd is then still the caller's.
 */
struct gzio_writer *gzio_writer_open(int fd);
/* Write all of buf and flush it to the file; -1 with errno set. */
int gzio_write(struct gzio_writer *w, const char *buf, size_t len);
/* The file descriptor written to (still the writer's: never close it). */
int gzio_writer_fd(const struct gzio_writer *w);
/* Finish the member and close the file; -1 with errno set. */
int gzio_writer_close(struct gzio_writer *w);

#endif
