/* json.h - a small streaming JSON writer with correct escaping. */
#ifndef SGA_JSON_H
#define SGA_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *f;
	int depth;
	int first[JSON_MAX_DEPTH];	/* no member written yet at this depth */
	int pretty;			/* indent with two spaces */
};

/* Start writing to f; pretty adds newlines and indentation. */
void json_init(struct json *j, FILE *f, int pretty);
/* Open an object or array; key is the member name, or NULL inside arrays/at top. */
void json_obj_open(struct json *j, const char *key);
void json_obj_close(struct json *j);
void json_arr_open(struct json *j, const char *key);
void json_arr_close(struct json *j);
/* Members: key NULL inside arrays. A NULL string writes null. */
void json_str(struct json *j, const char *key, const char *val);
void json_u64(struct json *j, const char *key, uint64_t val);
void json_i64(struct json *j, const char *key, int64_t val);
/* Non-finite doubles are written as null (JSON has no NaN). */
/* v as the fewest significant digits (15 to 17) that read back as v
 * exactly: 1.4, not 1.3999999999999999. Into buf (32 bytes do). */
char *dbl_shortest(char *buf, size_t len, double v);
void json_dbl(struct json *j, const char *key, double val);
void json_bool(struct json *j, const char *key, int val);
void json_null(struct json *j, const char *key);
/* Write raw, already valid JSON text as a member (e.g. a stored config). */
void json_raw(struct json *j, const char *key, const char *text);
/* Finish the document with a newline. */
void json_end(struct json *j);

/* Write s as a JSON string literal (with quotes) to f. */
void json_write_string(FILE *f, const char *s);

/*
 * The number after the first "KEY": in JSON text (NULL: none), into *v.
 * Returns 0, or -ENOENT when the key is absent or not followed by a
 * number. Not a parser: for a key that occurs once in the part of text
 * given (a stored model machine's "walk_cycles" and "ghz").
 */
int json_text_number(const char *text, const char *key, double *v);

#endif
