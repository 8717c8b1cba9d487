/* SPDX-License-Identifier: MIT */
/*
 * Rows of opt/table.c's table: the options of the engines that need
 * nothing but the kernel (opt/engine_opts.h). Included inside opt_table[]
 * only, where OFF() and SEC are defined; not a header of its own.
 */

	/* filestat, dirstat */
	{ .name = "stat_type", .type = OPT_ENUM, .off = OFF(stat_type),
	  .def = "stat", .enums = stat_type_enums, .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "filestat, dirstat: the call each I/O's file is looked up "
		  "with" },

	/* cpuio */
	{ .name = "cpuload", .type = OPT_UINT, .off = OFF(cpuload),
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "cpuio: percentage of one CPU to burn (required; above "
		  "100 means 100, as fio)" },
	{ .name = "cpuchunks", .type = OPT_UINT, .off = OFF(cpuchunks_us),
	  .def = "50000", .min = 1, .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "cpuio: microseconds of each burn cycle; the job sleeps "
		  "between cycles for the rest of the load" },
	{ .name = "cpumode", .type = OPT_ENUM, .off = OFF(cpumode),
	  .def = "noop", .enums = cpu_mode_enums, .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "cpuio: how a cycle burns the CPU" },
	{ .name = "exit_on_io_done", .type = OPT_BOOL,
	  .off = OFF(exit_on_io_done), .def = "0", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "cpuio: end when every job that does I/O has finished" },

	/* exec */
	{ .name = "program", .type = OPT_STR, .off = OFF(program),
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "exec: the program to run (a path, or a name found on "
		  "PATH)" },
	{ .name = "arguments", .type = OPT_STR, .off = OFF(arguments),
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "exec: its arguments, split at spaces; %r is the runtime "
		  "in seconds, %n the job's name" },
	{ .name = "grace_time", .type = OPT_UINT, .off = OFF(grace_time_s),
	  .def = "1", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "exec: seconds between SIGTERM and SIGKILL when the "
		  "runtime is over" },
	{ .name = "std_redirect", .type = OPT_BOOL, .off = OFF(std_redirect),
	  .def = "1", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "exec: the program's stdout and stderr go to NAME.stdout "
		  "and NAME.stderr in the current directory" },

	/* net, netsplice */
	{ .name = "hostname", .type = OPT_STR, .off = OFF(hostname),
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "net: the host to connect or send to (a UDP reader: a "
		  "multicast group); default: filename=" },
	{ .name = "port", .type = OPT_UINT, .off = OFF(port), .min = 1,
	  .max = 65535, .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "net: TCP or UDP port; numjobs clones use the ports "
		  "after it" },
	{ .name = "protocol", .alias = "proto", .type = OPT_ENUM,
	  .off = OFF(protocol), .def = "tcp", .enums = net_proto_enums,
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE, .help = "net: the protocol" },
	{ .name = "listen", .type = OPT_BOOL, .off = OFF(listen), .def = "0",
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "net: TCP: wait for the other side to connect rather "
		  "than connect to it" },
	{ .name = "pingpong", .type = OPT_BOOL, .off = OFF(pingpong),
	  .def = "0", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "net: the reader sends each message back and the writer "
		  "waits for it: the latency is a round trip" },
	{ .name = "nodelay", .type = OPT_BOOL, .off = OFF(nodelay),
	  .def = "0", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "net: set TCP_NODELAY (no Nagle batching)" },
	{ .name = "interface", .type = OPT_STR, .off = OFF(interface),
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "net: IPv4 address of the interface for UDP multicast" },
	{ .name = "ttl", .type = OPT_UINT, .off = OFF(ttl), .def = "1",
	  .max = 255, .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "net: time to live of outgoing UDP multicast packets" },
	{ .name = "window_size", .type = OPT_SIZE, .off = OFF(window_size),
	  .def = "0", .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "net: socket buffer size (SO_RCVBUF when receiving, "
		  "SO_SNDBUF when sending; 0: the system's)" },
	{ .name = "mss", .type = OPT_UINT, .off = OFF(mss), .def = "0",
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "net: TCP maximum segment size (TCP_MAXSEG; 0: the "
		  "system's)" },

	/* e4defrag */
	{ .name = "donorname", .type = OPT_STR, .off = OFF(donorname),
	  .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "e4defrag: the file whose blocks each write swaps in "
		  "(in directory= when set; created, kept after the run)" },
	{ .name = "inplace", .type = OPT_UINT, .off = OFF(inplace),
	  .def = "0", .max = 1, .category = OPT_CAT_ENGINE,
	  .flags = OPT_F_ENGINE,
	  .help = "e4defrag: 0 allocates the donor's blocks once at start, "
		  "1 allocates them for each write and frees them after" },
