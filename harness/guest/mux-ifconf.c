// SPDX-License-Identifier: GPL-2.0
/*
 * mux-ifconf N: N SIOCGIFCONF ioctls on a unix socket.  Each is a call of
 * dev_ifconf(), which takes and releases the RTNL: a call of the
 * out-of-line copy of rtnl_unlock(), where rtnetlink's own calls are
 * inlined copies (distro-inline.sh).
 */
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1;
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct ifconf ifc = { 0 };

	if (fd < 0) {
		perror("mux-ifconf: socket");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		if (ioctl(fd, SIOCGIFCONF, &ifc)) {
			perror("mux-ifconf: SIOCGIFCONF");
			return 1;
		}
	}
	return 0;
}
