/*
 * What the files of assay-test-tool share: argument parsing, sleeping, and the attack
 * subcommands (attacks.c).
 */
#ifndef ASSAY_TEST_TOOL_H
#define ASSAY_TEST_TOOL_H

double parse_seconds(const char *s);
long long parse_count(const char *s);
int parse_signal(const char *s);
void sleep_s(double s);

int cmd_write_file(const char *path);
int cmd_read_file(const char *path);
int cmd_connect(const char *port);
int cmd_udp(const char *port);
int cmd_signal(const char *pid, const char *sig);
int cmd_touch_mem(const char *mib);
int cmd_spin(void);
int cmd_write_big(const char *path, const char *bytes);
int cmd_burn_grandchild(const char *secs);
int cmd_fork_until_fail(const char *max);
int cmd_fork_bomb(const char *marker);
int cmd_forge_report(const char *stop);
int cmd_ptrace_parent(void);
int cmd_grab_report_pipes(const char *seconds, const char *parent);
int cmd_whoami(void);
int cmd_shm_leave(const char *key);
int cmd_mq_leave(const char *name);
int cmd_mq_read(const char *name);
int cmd_forge_results(const char *id);
int cmd_listen(const char *portfile, const char *seconds);
int cmd_tcp_server(const char *own, const char *other);

int cmd_connect_unix(const char *name);
int cmd_dgram_pair_send(const char *name);
int cmd_stream_pair(void);
int cmd_read_key(const char *desc);
int cmd_tty(const char *path);
int cmd_burn_ignored_child(const char *secs);
int cmd_new_namespace(const char *how);
int cmd_hold_mem(const char *how, const char *mib);
int cmd_show_inherited(void);
int cmd_poison_parent(const char *nofile);

#endif
