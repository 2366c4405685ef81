/*
 * store/pg_dl.c - libpq, loaded by the first pg_open, not linked.
 *
 * Linked, libpq brings 22 more shared libraries (OpenSSL, GnuTLS,
 * Kerberos, LDAP, ...) into every sgabench process: 167 mappings instead
 * of 49. run forks every task from that process, and fork copies each
 * mapping, so the start-up of 256 tasks took 2.2 times as long (issue 27)
 * although no task ever talks to a server. Loaded here, libpq is mapped
 * only in a process that opens a PostgreSQL database.
 *
 * The functions below are the libpq functions bench/store calls, with
 * libpq's own prototypes (<libpq-fe.h>), each forwarding to the loaded
 * library; pg_open loads it before any of them runs (pg.h). sgabench does
 * not export them (no shared library it links refers to them), so libpq's
 * calls to its own functions bind inside libpq.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include "store/pg.h"

/* The library's soname (libpq5 on Debian; libpq-dev depends on it). */
#define PG_LIBPQ "libpq.so.5"

#define PQ_FUNCS(X) \
	X(PQconnectdb) X(PQfinish) X(PQconninfoParse) X(PQconninfoFree) X(PQstatus) \
	X(PQerrorMessage) X(PQexec) X(PQexecParams) X(PQresultStatus) \
	X(PQresultErrorMessage) X(PQresultErrorField) X(PQntuples) X(PQnfields) \
	X(PQfname) X(PQftype) X(PQcmdStatus) X(PQcmdTuples) X(PQgetvalue) \
	X(PQgetisnull) X(PQclear) X(PQfreemem)

static void *libpq;
static struct {
#define X(f) __typeof__(f) *f;
	PQ_FUNCS(X)
#undef X
} pq;

int pg_dl_load(char *err, size_t errlen)
{
	const char *missing = NULL;
	void *h;

	if (libpq)
		return 0;
	h = dlopen(PG_LIBPQ, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		snprintf(err, errlen, "%s", dlerror());
		return -ENOENT;
	}
#define X(f) if (!missing && !(*(void **)&pq.f = dlsym(h, #f))) missing = #f;
	PQ_FUNCS(X)
#undef X
	if (missing) {
		snprintf(err, errlen, "%s has no %s", PG_LIBPQ, missing);
		dlclose(h);
		return -ENOENT;
	}
	libpq = h;
	return 0;
}

PGconn *PQconnectdb(const char *conninfo)
{
	return pq.PQconnectdb(conninfo);
}

void PQfinish(PGconn *conn)
{
	pq.PQfinish(conn);
}

PQconninfoOption *PQconninfoParse(const char *conninfo, char **errmsg)
{
	return pq.PQconninfoParse(conninfo, errmsg);
}

void PQconninfoFree(PQconninfoOption *connOptions)
{
	pq.PQconninfoFree(connOptions);
}

ConnStatusType PQstatus(const PGconn *conn)
{
	return pq.PQstatus(conn);
}

char *PQerrorMessage(const PGconn *conn)
{
	return pq.PQerrorMessage(conn);
}

PGresult *PQexec(PGconn *conn, const char *query)
{
	return pq.PQexec(conn, query);
}

PGresult *PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes,
		       const char *const *paramValues, const int *paramLengths,
		       const int *paramFormats, int resultFormat)
{
	return pq.PQexecParams(conn, command, nParams, paramTypes, paramValues, paramLengths,
			       paramFormats, resultFormat);
}

ExecStatusType PQresultStatus(const PGresult *res)
{
	return pq.PQresultStatus(res);
}

char *PQresultErrorMessage(const PGresult *res)
{
	return pq.PQresultErrorMessage(res);
}

char *PQresultErrorField(const PGresult *res, int fieldcode)
{
	return pq.PQresultErrorField(res, fieldcode);
}

int PQntuples(const PGresult *res)
{
	return pq.PQntuples(res);
}

int PQnfields(const PGresult *res)
{
	return pq.PQnfields(res);
}

char *PQfname(const PGresult *res, int field_num)
{
	return pq.PQfname(res, field_num);
}

Oid PQftype(const PGresult *res, int field_num)
{
	return pq.PQftype(res, field_num);
}

char *PQcmdStatus(PGresult *res)
{
	return pq.PQcmdStatus(res);
}

char *PQcmdTuples(PGresult *res)
{
	return pq.PQcmdTuples(res);
}

char *PQgetvalue(const PGresult *res, int tup_num, int field_num)
{
	return pq.PQgetvalue(res, tup_num, field_num);
}

int PQgetisnull(const PGresult *res, int tup_num, int field_num)
{
	return pq.PQgetisnull(res, tup_num, field_num);
}

void PQclear(PGresult *res)
{
	pq.PQclear(res);
}

void PQfreemem(void *ptr)
{
	pq.PQfreemem(ptr);
}
