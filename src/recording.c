/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recording of --record (recording.h). */
#include <config.h>

#include <err.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib/numparse.h"
#include "lib/nls.h"
#include "record/record.h"
#include "record/rotate.h"
#include "recording.h"

/* The recording open, for the exits that do not return to main. */
static struct recording *open_recording;

/*
 * A sample that could not be made into a record (why): left out, said,
 * and the recording goes on (the next record is a whole one).
 */
static void recording_left_out(const char *why)
{
	warnx(_("a sample is left out of the recording: %s; the recording "
		"goes on"), why);
}

/*
 * The readings the producer's last sample was made of, into the
 * recording; false (said) when they cannot be written.
 */
bool recording_write(struct recording *r)
{
	const struct store_sample *in = producer_readings(r->m);
	char why[1024];

	int ret;

	if (!in) {
		/* the monitor keeps them whole unless memory ran out */
		recording_left_out(strerror(ENOMEM));
		return true;
	}
	if (r->rot) {
		ret = rotate_write(r->rot, in, why, sizeof(why));
		const char *note = rotate_warning(r->rot);
		if (note)
			warnx("%s", note);
		if (ret > 0)
			recording_left_out(why);
		else if (ret < 0)
			warnx(_("cannot write the recording: %s"), why);
		return ret >= 0;
	}
	ret = record_write(r->rec, in);
	if (ret > 0)
		recording_left_out(strerror(errno));
	if (ret >= 0)
		return true;
	if (errno == ENOENT)
		warnx(_("cannot write the recording: %s was removed "
			"while it was being written"), r->path);
	else
		warn(_("cannot write the recording"));
	return false;
}

/* Every sample goes to the recording, whatever the view shows of it. */
void recording_sample(const struct sample *s, void *arg)
{
	struct recording *r = arg;

	(void)s; /* its readings are recorded, not its figures */
	if (!recording_write(r))
		evloop_quit(r->loop, 1);
}

/*
 * STALLTOP_ROTATE_SECONDS=N: a "day" of N seconds, for the tests of
 * rotation and retention (rotate.h); not a user option.
 */
static long rotate_test_period(void)
{
	const char *v = getenv("STALLTOP_ROTATE_SECONDS");
	unsigned long n;
	if (!v || !*v)
		return 0;
	if (numparse_ulong(v, 1, 86400, &n) < 0)
		errx(2, _("invalid STALLTOP_ROTATE_SECONDS '%s'"), v);
	return (long)n;
}

/* Open --record FILE or DIR; exits on failure. */
void recording_open(struct recording *r, const struct options *o)
{
	char why[1024];
	if (!o->record)
		return;
	if (!rotate_is_dir(o->record)) {
		r->rec = record_open(o->record, true, why, sizeof(why));
		if (!r->rec)
			errx(1, "--record '%s': %s", o->record, why);
		r->path = o->record;
		open_recording = r;
		return;
	}
	struct rotate_opts ro = {
		.max_size = o->record_max_size,
		.keep = o->keep_days,
		.period = rotate_test_period(),
		.threads = true,
	};
	r->rot = rotate_open(o->record, &ro, why, sizeof(why));
	if (!r->rot)
		errx(1, "--record '%s': %s", o->record, why);
	open_recording = r;
	const char *note = rotate_warning(r->rot);
	if (note)
		warnx("%s", note);
}

/* Close the recording's file: at every exit. */
int recording_close(struct recording *r)
{
	int ret = r->rot ? rotate_close(r->rot) : record_close(r->rec);
	if (ret < 0)
		warn(_("cannot finish the recording"));
	r->rot = NULL;
	r->rec = NULL;
	open_recording = NULL;
	return ret;
}

/* An exit through err() or exit() elsewhere still finishes the file. */
void recording_at_exit(void)
{
	if (open_recording)
		recording_close(open_recording);
}
