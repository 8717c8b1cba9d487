/* SPDX-License-Identifier: MIT */
#include "run/iowq.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void iowq_track_init(struct iowq_track *t, pid_t owner)
{
	memset(t, 0, sizeof(*t));
	pthread_mutex_init(&t->lock, NULL);
	t->owner = owner;
}

void iowq_track_release(struct iowq_track *t)
{
	pthread_mutex_destroy(&t->lock);
}

static int read_small(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return 0;
}

void iowq_scan(struct iowq_track *t)
{
	char path[300], buf[128], want[32];
	struct dirent *de;
	unsigned int alive = 0;
	DIR *d;

	if (!t->owner)
		return;
	d = opendir("/proc/self/task");
	if (!d)
		return;
	snprintf(want, sizeof(want), "iou-wrk-%d", (int)t->owner);
	pthread_mutex_lock(&t->lock);
	while ((de = readdir(d))) {
		unsigned long long ns;
		pid_t tid;
		unsigned int i;

		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm",
			 de->d_name);
		if (read_small(path, buf, sizeof(buf)))
			continue;
		buf[strcspn(buf, "\n")] = '\0';
		if (strcmp(buf, want))
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/schedstat",
			 de->d_name);
		if (read_small(path, buf, sizeof(buf)) ||
		    sscanf(buf, "%llu", &ns) != 1)
			continue;
		alive++;
		tid = (pid_t)atoi(de->d_name);
		for (i = 0; i < t->nr; i++)
			if (t->tid[i] == tid)
				break;
		if (i == t->nr) {
			if (t->nr == IOWQ_MAX)
				continue;
			t->tid[t->nr++] = tid;
		}
		if (ns > t->ns[i])
			t->ns[i] = ns;
	}
	if (alive > t->max_alive)
		t->max_alive = alive;
	pthread_mutex_unlock(&t->lock);
	closedir(d);
}

uint64_t iowq_total_ns(struct iowq_track *t)
{
	uint64_t sum = 0;
	unsigned int i;

	pthread_mutex_lock(&t->lock);
	for (i = 0; i < t->nr; i++)
		sum += t->ns[i];
	pthread_mutex_unlock(&t->lock);
	return sum;
}
