/* builtin/db_named.h - the 'db' subcommands that serve the scripts (db_named.c). */
#ifndef SGA_BUILTIN_DB_NAMED_H
#define SGA_BUILTIN_DB_NAMED_H

int db_query(int argc, char **argv);
int db_exec(int argc, char **argv);
int db_init(int argc, char **argv);
int db_schema(int argc, char **argv);

#endif
