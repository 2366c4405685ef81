/* commands.h - one function per subcommand, one file each (bench/cmd_*.c). */
#ifndef SGA_COMMANDS_H
#define SGA_COMMANDS_H

/* Each takes the subcommand's own argv (argv[0] is its name) and returns an exit status (log.h). */
int cmd_run(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);
int cmd_runs(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_workloads(int argc, char **argv);
int cmd_sim(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_db(int argc, char **argv);
int cmd_export(int argc, char **argv);

#endif
