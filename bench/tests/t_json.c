/* t_json.c - the JSON writer: escaping, nesting, null for non-finite numbers.
 * Validity is checked by SQLite's own JSON parser. */
#include <math.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include "lib/json.h"
#include "tap.h"

/* Evaluate a one-value SQL expression on text, returning it as a string (caller frees). */
static char *sql1(const char *expr, const char *text)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	char *out = NULL, q[256];

	sqlite3_open(":memory:", &db);
	snprintf(q, sizeof(q), "SELECT %s", expr);
	if (sqlite3_prepare_v2(db, q, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
		if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
			out = strdup((const char *)sqlite3_column_text(st, 0));
		sqlite3_finalize(st);
	}
	sqlite3_close(db);
	return out;
}

static char *render(int pretty)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct json j;

	json_init(&j, f, pretty);
	json_obj_open(&j, NULL);
	json_str(&j, "quote", "a\"b\\c\n\t\x01<script>");
	json_u64(&j, "big", UINT64_MAX);
	json_i64(&j, "neg", -5);
	json_dbl(&j, "pi", 3.25);
	json_dbl(&j, "nan", NAN);
	json_dbl(&j, "inf", INFINITY);
	json_bool(&j, "yes", 1);
	json_null(&j, "nothing");
	json_str(&j, "nullstr", NULL);
	json_arr_open(&j, "arr");
	json_u64(&j, NULL, 1);
	json_obj_open(&j, NULL);
	json_obj_close(&j);
	json_arr_open(&j, NULL);
	json_arr_close(&j);
	json_arr_close(&j);
	json_raw(&j, "raw", "{\"k\":[1,2]}");
	json_obj_close(&j);
	json_end(&j);
	fclose(f);
	return buf;
}

int main(void)
{
	for (int pretty = 0; pretty < 2; pretty++) {
		char *doc = render(pretty), *v;

		v = sql1("json_valid(?1)", doc);
		ok(v && strcmp(v, "1") == 0, "valid JSON (pretty=%d)", pretty);
		free(v);
		v = sql1("json_extract(?1, '$.quote')", doc);
		ok(v && strcmp(v, "a\"b\\c\n\t\x01<script>") == 0, "escapes round-trip (pretty=%d)", pretty);
		free(v);
		v = sql1("json_type(?1, '$.nan') || json_type(?1, '$.inf')", doc);
		ok(v && strcmp(v, "nullnull") == 0, "NaN and Inf become null (pretty=%d)", pretty);
		free(v);
		v = sql1("json_extract(?1, '$.raw.k[1]')", doc);
		ok(v && strcmp(v, "2") == 0, "raw member embedded (pretty=%d)", pretty);
		free(v);
		v = sql1("json_array_length(?1, '$.arr')", doc);
		ok(v && strcmp(v, "3") == 0, "array with nested empties (pretty=%d)", pretty);
		free(v);
		ok(strstr(doc, "18446744073709551615") != NULL, "u64 max printed exactly (pretty=%d)", pretty);
		free(doc);
	}
	return done_testing();
}
