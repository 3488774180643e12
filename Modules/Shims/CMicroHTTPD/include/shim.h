#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <microhttpd.h>

// Swift cannot call C variadic functions: these wrappers fix the options
// WhileHere uses.

// Starts a daemon on an IPv4 address (NULL or "0.0.0.0" for every
// interface) with `threads` polling threads, each serving many connections
// through epoll. Handlers must not wait: a request whose answer takes time
// is suspended (MHD_ALLOW_SUSPEND_RESUME) and resumed when it is ready
// (MHD_USE_ITC wakes its polling thread for that).
// `accept` decides on each new connection (a stopping server refuses
// them): libmicrohttpd's quiesce on an epoll daemon with its own threads races
// the threads' own removal of the listen socket and can abort the process
// (an open libmicrohttpd defect).
// Returns NULL on failure.
static inline struct MHD_Daemon *wh_mhd_start(
    const char *address, uint16_t port, MHD_AcceptPolicyCallback accept, void *accept_cls,
    MHD_AccessHandlerCallback handler, void *handler_cls,
    MHD_RequestCompletedCallback completed, void *completed_cls,
    MHD_NotifyConnectionCallback notify, void *notify_cls,
    unsigned int timeout_seconds, unsigned int connection_limit, size_t memory_limit, unsigned int per_ip_limit,
    unsigned int threads) {
  struct sockaddr_in sin;
  memset(&sin, 0, sizeof(sin));
  sin.sin_family = AF_INET;
  sin.sin_port = htons(port);
  if (address == NULL || inet_pton(AF_INET, address, &sin.sin_addr) != 1) {
    if (address != NULL && strcmp(address, "0.0.0.0") != 0) return NULL;
    sin.sin_addr.s_addr = htonl(INADDR_ANY);
  }
  return MHD_start_daemon(
      MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ITC | MHD_ALLOW_SUSPEND_RESUME, port, accept, accept_cls,
      handler, handler_cls,
      MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&sin,
      MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
      MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
      MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
      MHD_OPTION_CONNECTION_LIMIT, connection_limit,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
      MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_ip_limit,
      MHD_OPTION_THREAD_POOL_SIZE, threads,
      MHD_OPTION_END);
}

// The port the daemon listens on (the real one when 0 was asked for).
static inline uint16_t wh_mhd_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info == NULL ? 0 : info->port;
}

// The connection's socket, or -1.
static inline int wh_mhd_connection_fd(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : info->connect_fd;
}

// What the connection-notify callback stored for the connection, or NULL.
static inline void *wh_mhd_socket_context(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info == NULL ? NULL : info->socket_context;
}

// The client's IP address as text, for slowing repeated failed logins.
static inline void wh_mhd_client_address(struct MHD_Connection *connection, char *buffer, socklen_t size) {
  buffer[0] = 0;
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == NULL || info->client_addr == NULL) return;
  const struct sockaddr *sa = info->client_addr;
  if (sa->sa_family == AF_INET) {
    inet_ntop(AF_INET, &((const struct sockaddr_in *)sa)->sin_addr, buffer, size);
  } else if (sa->sa_family == AF_INET6) {
    inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)sa)->sin6_addr, buffer, size);
  }
}
