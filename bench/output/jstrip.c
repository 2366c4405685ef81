/*
 * output/jstrip.c - copy a JSON text without its nulls: an object member
 * whose value is null and an array element that is null are left out, at
 * every depth. For documents (KCIDB) whose schema allows no null anywhere.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "output/kcidb.h"

static const char *skip_ws(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* The end of the string token starting at p (on its opening quote), or NULL. */
static const char *string_end(const char *p)
{
	for (p++; *p && *p != '"'; p++)
		if (*p == '\\' && !*++p)
			return NULL;
	return *p ? p + 1 : NULL;
}

static const char *copy_value(const char *p, FILE *f, int *was_null);

/* Copy the object or array at p ('{' or '['); returns the text after it, or NULL. */
static const char *copy_container(const char *p, FILE *f)
{
	char close = *p == '{' ? '}' : ']';
	int obj = *p == '{', n = 0;

	fputc(*p++, f);
	for (p = skip_ws(p); *p && *p != close;) {
		const char *key = NULL, *key_end = NULL, *start, *after;
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);
		int null = 0;

		if (!m)
			return NULL;
		if (obj) {
			key = p;
			key_end = *p == '"' ? string_end(p) : NULL;
			if (!key_end)
				goto bad;
			p = skip_ws(key_end);
			if (*p++ != ':')
				goto bad;
		}
		start = skip_ws(p);
		after = copy_value(start, m, &null);
		if (!after)
			goto bad;
		fclose(m);
		if (!null) {
			if (n++)
				fputc(',', f);
			if (obj)
				fprintf(f, "%.*s:", (int)(key_end - key), key);
			fputs(buf, f);
		}
		free(buf);
		p = skip_ws(after);
		if (*p == ',')
			p = skip_ws(p + 1);
		continue;
bad:
		fclose(m);
		free(buf);
		return NULL;
	}
	if (*p != close)
		return NULL;
	fputc(close, f);
	return p + 1;
}

/* Copy the value at p; *was_null is set when it is null. Returns the text after it, or NULL. */
static const char *copy_value(const char *p, FILE *f, int *was_null)
{
	const char *e;

	*was_null = 0;
	if (*p == '{' || *p == '[')
		return copy_container(p, f);
	if (*p == '"') {
		e = string_end(p);
		if (e)
			fwrite(p, 1, (size_t)(e - p), f);
		return e;
	}
	if (strncmp(p, "null", 4) == 0) {
		*was_null = 1;
		return p + 4;
	}
	for (e = p; *e && !strchr(",]} \t\r\n", *e); e++)
		;
	if (e == p)
		return NULL;
	fwrite(p, 1, (size_t)(e - p), f);
	return e;
}

int json_copy_without_nulls(const char *text, FILE *f)
{
	int null;
	const char *end = copy_value(skip_ws(text), f, &null);

	if (null)
		fputs("{}", f);
	return end && !*skip_ws(end) ? 0 : -1;
}

void json_raw_without_nulls(struct json *j, const char *key, const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	if (json_copy_without_nulls(text && *text ? text : "{}", m)) {
		fclose(m);
		free(buf);
		json_raw(j, key, "{}");
		return;
	}
	fclose(m);
	json_raw(j, key, buf);
	free(buf);
}
