/*
 * store/created.c - a database this process created and stored nothing in
 * is removed again: a run or sim that is interrupted (SIGINT, SIGTERM) or
 * refused after opening --db NEW.db leaves things as they were, not an
 * empty schema behind. A database that was there before is never removed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "store/internal.h"

/* The files of an SQLite database at path: itself, then its companions. */
static const char *const suffix[4] = { "", "-wal", "-shm", "-journal" };

int store_create_excl(const char *path)
{
	/* 0644, as SQLite creates a database (SQLITE_DEFAULT_FILE_PERMISSIONS) */
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0)
		return 0;
	close(fd);
	return 1;
}

int store_mark_created(struct store *s)
{
	size_t len = strlen(s->path) + sizeof("-journal");

	for (int i = 0; i < 4; i++) {
		if (!(s->created[i] = malloc(len)))
			return -ENOMEM;
		snprintf(s->created[i], len, "%s%s", s->path, suffix[i]);
	}
	return 0;
}

int store_created(const struct store *s)
{
	return s && s->created[3];
}

void store_remove_created(const struct store *s)
{
	if (!store_created(s) || s->stored)
		return;
	/* the database last, so no companion outlives it */
	for (int i = 3; i >= 0; i--)
		unlink(s->created[i]);
}

/* Whether the database of s holds a run or a machine (1), none (0), or cannot tell (-1). */
static int holds_anything(struct store *s)
{
	int64_t n;

	if (store_scalar(s, "SELECT EXISTS (SELECT 1 FROM run) OR EXISTS (SELECT 1 FROM machine)", &n))
		return -1;
	return n != 0;
}

int store_close_unused(struct store *s)
{
	int removed;

	if (!s)
		return 0;
	/* another process may have stored in it since: look, do not trust s->stored */
	removed = store_created(s) && !s->stored && holds_anything(s) == 0;
	if (removed) {
		/* closed first: the last connection's checkpoint writes no more */
		sqlite3_close(s->db);
		s->db = NULL;
		store_remove_created(s);
	}
	store_close(s);
	return removed;
}
