// SPDX-License-Identifier: GPL-2.0
/*
 * /init for the QEMU boots of kernel/check: mounts what the kselftest
 * needs, runs /sharedctx (tools/testing/selftests/mm/sharedctx.c of the
 * patched tree, the same binary run_vmtests.sh runs), checks the kernel
 * log, prints one verdict line and powers the guest off.
 *
 * Verdict: "SELFTEST: PASS" only if the kselftest exits 0 (every case
 * passed or was skipped for the mode; an exit-skip of the whole program
 * is a failure here, since each boot knows what it expects), the kernel
 * log has no BUG, WARNING, Oops, lockdep or refcount report, and, with
 * shared_mmu_ctx=off on the command line, the log says the hardware
 * support is disabled.  Otherwise "SELFTEST: FAIL <reasons>".
 * Build: sparc64-linux-gnu-gcc -static -O2 -Wall -o init init.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/klog.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>

static char klog[1 << 18];
static char reasons[512];

static void reason(const char *r)
{
	size_t len = strlen(reasons);

	if (len + strlen(r) + 2 < sizeof(reasons))
		snprintf(reasons + len, sizeof(reasons) - len, "%s%s",
			 len ? "," : "", r);
}

static void setup(void)
{
	int fd;

	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	mkdir("/proc", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	mkdir("/sys", 0755);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	setvbuf(stdout, NULL, _IOLBF, 0);
}

/* The kselftest's exit status, or -1 if it could not run */
static int run_kselftest(void)
{
	char *const argv[] = { "/sharedctx", NULL };
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		execv(argv[0], argv);
		printf("init: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

static int cmdline_has(const char *word)
{
	char buf[1024] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
	}
	return strstr(buf, word) != NULL;
}

int main(void)
{
	static const char *const bad[] = {
		"BUG:", "WARNING:", "Oops", "Call Trace", "Kernel panic",
		"kernel BUG", "Unable to handle", "refcount_t:",
		"possible recursive locking", "circular locking",
		"inconsistent lock state", NULL
	};
	int rc, n, i;

	setup();
	rc = run_kselftest();
	if (rc != 0) {
		char r[48];

		snprintf(r, sizeof(r), "kselftest-exit-%d", rc);
		reason(r);
	}
	n = klogctl(3, klog, sizeof(klog) - 1);
	if (n < 0) {
		reason("klogctl");
		n = 0;
	}
	klog[n] = 0;
	for (i = 0; bad[i]; i++)
		if (strstr(klog, bad[i])) {
			printf("init: kernel log contains \"%s\"\n", bad[i]);
			reason("kernel-log");
		}
	if (cmdline_has("shared_mmu_ctx=off") &&
	    !strstr(klog, "shared_mmu_ctx: hardware support disabled"))
		reason("param-off-not-logged");

	if (reasons[0])
		printf("SELFTEST: FAIL %s\n", reasons);
	else
		printf("SELFTEST: PASS\n");
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	for (;;)
		pause();
	return 0;
}
