/* SPDX-License-Identifier: GPL-2.0-only OR Linux-OpenIB */
/*
 * ibrd_check_port.c - the preflight's checks of one port (ibrd_check.h):
 * a verbs port's device and HCA port as libibverbs reads them
 * (io_verbs_probe), a umad port's as libibumad does (mad_umad_probe), the
 * device nodes the daemon's user opens, a sim port's sockets, a configured
 * prefix that cannot be routed.
 */
#include "daemon/check/ibrd_check.h"
#include "mad/mad_umad.h"
#include "router/io/io_verbs_probe.h"

#include "lib/ibr_gid.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static const char *port_state_name(unsigned s)
{
	static const char *const n[] = { "NOP", "Down", "Init", "Armed", "Active" };

	return s < 5 ? n[s] : "?";
}

static unsigned mtu_bytes(uint8_t ibv_mtu)
{
	return ibv_mtu >= 1 && ibv_mtu <= 5 ? 128u << ibv_mtu : 0;
}

/* Is a live process bound at the datagram socket `path`?  1 yes, 0 no one, -errno. */
static int sock_live(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, rc;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	if ((fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return -errno;
	rc = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0 ? 1
	     : errno == ECONNREFUSED || errno == ENOENT		  ? 0
								  : -errno;
	close(fd);
	return rc;
}

/* The directory of socket path `sock` into dir ("." for none). */
static void sock_dir(const char *sock, char *dir, size_t n)
{
	char *slash;

	snprintf(dir, n, "%s", sock);
	if ((slash = strrchr(dir, '/')))
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		snprintf(dir, n, ".");
}

/*
 * May the daemon bind a socket in `dir`?  The control socket's directory it
 * makes at start (as root, who then gives it to the user), so a missing one
 * is fine when its parent takes it.  0, or -errno with why.
 */
static int sock_dir_ok(const struct ibrd_check *k, const char *dir, char *why, size_t n)
{
	char ctl[IBRD_PATH_MAX], parent[IBRD_PATH_MAX];
	int rc = ibrd_check_rw(k, dir, false, true, why, n);

	sock_dir(k->conf->ctl_socket, ctl, sizeof(ctl));
	if (rc == -ENOENT && !strcmp(dir, ctl)) {
		sock_dir(dir, parent, sizeof(parent));
		if (!(rc = ibrd_check_rw(k, parent, false, true, why, n)))
			snprintf(why, n, "its directory is made at start, the control socket's");
	}
	return rc;
}

void ibrd_check_ctl(struct ibrd_check *k)
{
	const char *sock = k->conf->ctl_socket;
	char what[IBRD_PATH_MAX + 32], dir[IBRD_PATH_MAX], why[128];
	int rc;

	snprintf(what, sizeof(what), "control socket %s", sock);
	sock_dir(sock, dir, sizeof(dir));
	if ((rc = sock_dir_ok(k, dir, why, sizeof(why))))
		ibrd_check_say(k, IBRD_CHECK_FAIL, what, "its directory %s: %s%s%s", dir,
			       strerror(-rc), why[0] ? ": " : "", why);
	else if (sock_live(sock) > 0)
		ibrd_check_say(k, IBRD_CHECK_WARN, what,
			       "a daemon answers there: another one will not start on it (this "
			       "check is for before it starts)");
	else
		ibrd_check_say(k, IBRD_CHECK_OK, what, "can be bound%s%s%s", why[0] ? " (" : "",
			       why, why[0] ? ")" : "");
}

static void check_sim(struct ibrd_check *k, const struct ibrd_conf_port *p)
{
	char what[IBRD_PATH_MAX + 32], dir[IBRD_PATH_MAX], why[128];
	int rc;

	snprintf(what, sizeof(what), "port %s: sim socket %s", p->name, p->sim_socket);
	sock_dir(p->sim_socket, dir, sizeof(dir));
	if ((rc = sock_dir_ok(k, dir, why, sizeof(why))))
		ibrd_check_say(k, IBRD_CHECK_FAIL, what, "its directory %s: %s%s%s", dir,
			       strerror(-rc), why[0] ? ": " : "", why);
	else if ((rc = sock_live(p->sim_socket)) > 0)
		ibrd_check_say(k, IBRD_CHECK_FAIL, what,
			       "a live process is bound there (another router?): the daemon "
			       "will not take it over");
	else
		ibrd_check_say(k, IBRD_CHECK_OK, what, "can be bound%s%s%s", why[0] ? " (" : "",
			       why, why[0] ? ")" : "");
	snprintf(what, sizeof(what), "port %s: sim peer %s", p->name, p->sim_peer);
	if (sock_live(p->sim_peer) > 0)
		ibrd_check_say(k, IBRD_CHECK_OK, what, "someone is bound there");
	else
		ibrd_check_say(k, IBRD_CHECK_WARN, what,
			       "nothing bound there yet: what the port sends is dropped "
			       "(peer_absent) until there is");
}

/* The device node `path` (/dev/infiniband/...) for the daemon's user. */
static void check_node(struct ibrd_check *k, const char *port, const char *path, bool rooted,
		       const char *opens)
{
	char what[160], why[128];
	int rc = ibrd_check_rw(k, path, rooted, false, why, sizeof(why));

	snprintf(what, sizeof(what), "port %s: %s", port, path);
	if (!rc)
		ibrd_check_say(k, IBRD_CHECK_OK, what, "%s may read and write it", k->user);
	else if (rc == -EACCES && k->switches)
		ibrd_check_say(k, IBRD_CHECK_WARN, what,
			       "%s: root opens %s at start, but once it is lost and back it "
			       "opens as %s, who may not (a udev rule: etc/udev/)",
			       why, opens, k->user);
	else if (rc == -EACCES)
		ibrd_check_say(k, IBRD_CHECK_FAIL, what,
			       "%s may not read and write it (%s): %s will not open (a udev rule, "
			       "or a group: etc/udev/)",
			       k->user, why, opens);
	else
		ibrd_check_say(k, IBRD_CHECK_FAIL, what, "%s: %s will not open", strerror(-rc),
			       opens);
}

static void verbs_port(struct ibrd_check *k, const struct ibrd_conf_port *p,
		       const struct io_verbs_probe *v, const char *what)
{
	union ibr_gid g;
	char gs[IBR_GID_STRLEN], w[96];
	unsigned mtu = mtu_bytes(v->active_mtu);

	ibrd_check_say(k, v->state == 4 ? IBRD_CHECK_OK : IBRD_CHECK_WARN, what,
		       "link layer %s, %s%s", v->ethernet ? "Ethernet (RoCE)" : "InfiniBand",
		       port_state_name(v->state),
		       v->state == 4 ? "" : ": it forwards once its link is up and Active");
	snprintf(w, sizeof(w), "port %s: LID", p->name);
	if (!v->ethernet && (!v->lid || !v->sm_lid))
		ibrd_check_say(k, IBRD_CHECK_WARN, w,
			       "%s: no SM has set the port up yet (it forwards once one has)",
			       !v->lid ? "none" : "no SM LID");
	else if (!v->ethernet)
		ibrd_check_say(k, IBRD_CHECK_OK, w, "0x%04x (LMC %u), its SM at LID 0x%04x", v->lid,
			       v->lmc, v->sm_lid);
	snprintf(w, sizeof(w), "port %s: GID 0", p->name);
	memcpy(g.raw, v->gid0, 16);
	if (!v->gid0_ok)
		ibrd_check_say(k, IBRD_CHECK_WARN, w, "unread");
	else if (v->ethernet)
		ibrd_check_say(k, IBRD_CHECK_OK, w,
			       "%s (RoCE: the port takes the first RoCE v2 GID that is not "
			       "link-local)",
			       ibr_gid_ntop(&g, gs, sizeof(gs)));
	else if (ibr_gid_is_link_local(&g) && !p->rp.prefix)
		ibrd_check_say(k, IBRD_CHECK_WARN, w,
			       "%s: its subnet's prefix is link-local (fe80::/64: the SM's "
			       "default), never routed: give the SM a subnet_prefix of its own",
			       ibr_gid_ntop(&g, gs, sizeof(gs)));
	else
		ibrd_check_say(k, IBRD_CHECK_OK, w, "%s%s", ibr_gid_ntop(&g, gs, sizeof(gs)),
			       p->rp.prefix ? " (the config's subnet-prefix is the port's)"
					    : ": its prefix is the port's");
	snprintf(w, sizeof(w), "port %s: MTU", p->name);
	if (mtu && p->rp.mtu > mtu)
		ibrd_check_say(k, IBRD_CHECK_WARN, w,
			       "the config's mtu %u is above the port's active MTU %u: larger "
			       "datagrams fail to send there",
			       p->rp.mtu, mtu);
	else
		ibrd_check_say(k, IBRD_CHECK_OK, w, "active %u (max %u), the port's %u", mtu,
			       mtu_bytes(v->max_mtu), p->rp.mtu);
}

static void verbs_pkeys(struct ibrd_check *k, const struct ibrd_conf_port *p,
			const struct io_verbs_probe *v)
{
	char w[96], list[IO_VERBS_PROBE_PKEYS * 8], miss[ROUTER_MAX_PKEYS * 8];
	size_t at = 0, mat = 0;
	bool deflt = false;

	list[0] = miss[0] = '\0';
	for (unsigned i = 0; i < v->npkeys; i++) {
		deflt |= (v->pkeys[i] & 0x7FFF) == 0x7FFF;
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s0x%04x", i ? "," : "",
				       v->pkeys[i]);
	}
	for (unsigned i = 0; i < p->rp.npkeys; i++) {
		bool in = false;

		for (unsigned j = 0; j < v->npkeys && !in; j++)
			in = (v->pkeys[j] & 0x7FFF) == (p->rp.pkeys[i] & 0x7FFF);
		if (!in)
			mat += (size_t)snprintf(miss + mat, sizeof(miss) - mat, "%s0x%04x",
						mat ? "," : "", p->rp.pkeys[i]);
	}
	snprintf(w, sizeof(w), "port %s: P_Keys", p->name);
	if (miss[0])
		ibrd_check_say(k, IBRD_CHECK_WARN, w,
			       "the HCA port's table (%s) lacks the config's %s: the HCA "
			       "neither sends nor receives those partitions' packets",
			       list[0] ? list : "empty", miss);
	else if (!deflt)
		ibrd_check_say(k, IBRD_CHECK_WARN, w,
			       "%s: no default partition (0x7fff/0xffff): the SM has not set the "
			       "table, or the port is outside it",
			       list[0] ? list : "empty");
	else
		ibrd_check_say(k, IBRD_CHECK_OK, w, "%s", list);
}

static void verbs_limits(struct ibrd_check *k, const struct ibrd_conf_port *p, unsigned nproxy,
			 const struct io_verbs_probe *v)
{
	struct io_verbs_need n;
	char w[96];

	io_verbs_need(p->rq_depth, p->sq_depth, nproxy, &n);
	snprintf(w, sizeof(w), "port %s: device limits", p->name);
	if (!v->limits_ok)
		ibrd_check_say(k, IBRD_CHECK_WARN, w, "unread (ibv_query_device failed)");
	else if (v->max_qp < (int)n.qps || v->max_cq < (int)n.cqs || v->max_cqe < (int)n.cqe ||
		 v->max_qp_wr < (int)n.qp_wr)
		ibrd_check_say(k, IBRD_CHECK_FAIL, w,
			       "the port takes %u QPs (max %d), %u CQs (max %d) of %u entries (max "
			       "%d), queues of %u (max %d): it will not open",
			       n.qps, v->max_qp, n.cqs, v->max_cq, n.cqe, v->max_cqe, n.qp_wr,
			       v->max_qp_wr);
	else
		ibrd_check_say(k, IBRD_CHECK_OK, w,
			       "%u QPs (max %d), %u CQs of %u entries (max %d), queues of %u (max "
			       "%d); firmware %s",
			       n.qps, v->max_qp, n.cqs, n.cqe, v->max_cqe, n.qp_wr, v->max_qp_wr,
			       v->fw_ver[0] ? v->fw_ver : "?");
}

static void check_verbs(struct ibrd_check *k, const struct ibrd_conf_port *p)
{
	struct io_verbs_probe v;
	char what[96], node[160];
	unsigned nproxy = 0;

	for (unsigned x = 0; x < k->conf->nproxies; x++)
		nproxy += !strcmp(k->conf->proxies[x].port, p->name);
	snprintf(what, sizeof(what), "port %s: verbs %s:%u", p->name, p->device, p->device_port);
	io_verbs_probe(p->device, p->device_port, &v);
	if (!v.listed) {
		ibrd_check_say(k, IBRD_CHECK_FAIL, what,
			       "no such device (%d listed%s): the port is lost until it comes",
			       v.ndevs < 0 ? 0 : v.ndevs,
			       v.ndevs <= 0 ? ": no RDMA device, is the HCA's driver loaded?" : "");
		return;
	}
	if (v.open_err) {
		ibrd_check_say(k, IBRD_CHECK_FAIL, what, "cannot open the device: %s",
			       strerror(-v.open_err));
	} else if (v.port_err) {
		ibrd_check_say(k, IBRD_CHECK_FAIL, what, "no such port (the device has %u): %s",
			       v.nports, strerror(-v.port_err));
		return;
	} else {
		verbs_port(k, p, &v, what);
		verbs_pkeys(k, p, &v);
		verbs_limits(k, p, nproxy, &v);
	}
	/* the uverbs device the daemon opens (also once it is lost and back) */
	snprintf(node, sizeof(node), "/dev/infiniband/%s", v.dev_name);
	check_node(k, p->name, node, true, "the verbs device");
}

static void check_umad(struct ibrd_check *k, const struct ibrd_conf_port *p)
{
	struct mad_umad_probe u;
	char what[96];

	snprintf(what, sizeof(what), "port %s: umad %s:%u", p->name, p->umad_ca, p->umad_port);
	mad_umad_probe(p->umad_ca, p->umad_port, &u);
	if (u.port_err) {
		ibrd_check_say(k, IBRD_CHECK_FAIL, what,
			       "no such CA or port (%s): its MAD channel is lost until it comes",
			       strerror(-u.port_err));
		return;
	}
	if (u.ethernet) {
		ibrd_check_say(k, IBRD_CHECK_FAIL, what,
			       "link layer Ethernet: no SM and no SA there (mad = none for a RoCE "
			       "port)");
		return;
	}
	ibrd_check_say(k, u.state == 4 ? IBRD_CHECK_OK : IBRD_CHECK_WARN, what,
		       "%s, LID 0x%04x, SM LID 0x%04x%s", port_state_name(u.state), u.lid, u.sm_lid,
		       u.state == 4 ? "" : ": its SA client waits for the SM to bring it up");
	if (u.path_err) {
		ibrd_check_say(k, IBRD_CHECK_FAIL, what,
			       "its umad device not found (%s: ib_umad not loaded?): the MAD "
			       "channel is lost until it is",
			       strerror(-u.path_err));
		return;
	}
	check_node(k, p->name, u.umad_path, false, "the MAD channel");
}

void ibrd_check_port(struct ibrd_check *k, unsigned i)
{
	const struct ibrd_conf_port *p = &k->conf->port[i];
	union ibr_gid g = ibr_gid_make(p->rp.prefix, 0);
	char gs[IBR_GID_STRLEN], what[96];

	if (p->data == IBRD_DATA_SIM)
		check_sim(k, p);
	else if (p->data == IBRD_DATA_VERBS)
		check_verbs(k, p);
	if (p->mad == IBRD_MAD_UMAD)
		check_umad(k, p);
	if (p->rp.prefix && ibr_gid_is_link_local(&g)) {
		snprintf(what, sizeof(what), "port %s: subnet-prefix", p->name);
		ibrd_check_say(k, IBRD_CHECK_WARN, what,
			       "%s is link-local (fe80::/64 is a subnet's default): never routed",
			       ibr_gid_ntop(&g, gs, sizeof(gs)));
	}
}
