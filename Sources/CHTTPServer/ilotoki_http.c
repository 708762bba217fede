#define _GNU_SOURCE
#include "ilotoki_http.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#define MAX_DAEMONS 8

/* A connection, known from its start to its close: the watchdog closes one whose request has
 * not arrived whole in time. */
typedef struct tracked_connection {
    int fd;
    double since;     /* when its current request began, or its last answer went */
    int answering;    /* its request is with the handler: no deadline then */
    int cut;          /* the watchdog shut it down */
    struct tracked_connection *previous, *next;
} tracked_connection;

/* One request's state while its body arrives. */
typedef struct request_state {
    uint8_t *body;
    size_t length, capacity;
    int refused; /* answered 413: the rest of the body is dropped */
} request_state;

struct ilotoki_http_server {
    ilotoki_http_config config;
    struct MHD_Daemon *daemons[MAX_DAEMONS];
    size_t daemon_count;
    pthread_mutex_t lock;
    tracked_connection *connections;
    pthread_t watchdog;
    int watchdog_running;
    pthread_cond_t watchdog_wake;
    char *too_large_body;
    char *too_large_headers;
};

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void set_error(char *error, size_t error_len, const char *format, const char *detail) {
    if (error != NULL && error_len > 0) snprintf(error, error_len, format, detail);
}

int ilotoki_http_listen(const char *address, int port, int *bound_port, char *error, size_t error_len) {
    struct sockaddr_storage storage;
    memset(&storage, 0, sizeof storage);
    socklen_t length;
    int family;
    if (port < 0 || port > 65535) {
        set_error(error, error_len, "%s is not a port (0 to 65535)", "the port");
        return -1;
    }
    struct sockaddr_in *v4 = (struct sockaddr_in *)&storage;
    struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&storage;
    if (inet_pton(AF_INET, address, &v4->sin_addr) == 1) {
        family = AF_INET;
        v4->sin_family = AF_INET;
        v4->sin_port = htons((uint16_t)port);
        length = sizeof *v4;
    } else if (inet_pton(AF_INET6, address, &v6->sin6_addr) == 1) {
        family = AF_INET6;
        v6->sin6_family = AF_INET6;
        v6->sin6_port = htons((uint16_t)port);
        length = sizeof *v6;
    } else {
        set_error(error, error_len, "'%s' is not an IP address", address);
        return -1;
    }
    int fd = socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        set_error(error, error_len, "cannot make a socket: %s", strerror(errno));
        return -1;
    }
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (family == AF_INET6) setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&storage, length) != 0 || listen(fd, SOMAXCONN) != 0) {
        int saved = errno;
        close(fd);
        set_error(error, error_len, "%s", strerror(saved));
        errno = saved;
        return -1;
    }
    struct sockaddr_storage bound;
    socklen_t bound_length = sizeof bound;
    if (bound_port != NULL && getsockname(fd, (struct sockaddr *)&bound, &bound_length) == 0) {
        *bound_port = ntohs(bound.ss_family == AF_INET ? ((struct sockaddr_in *)&bound)->sin_port
                                                       : ((struct sockaddr_in6 *)&bound)->sin6_port);
    }
    return fd;
}

int ilotoki_http_socket_address(int fd, char *address, size_t address_len, int *port) {
    struct sockaddr_storage bound;
    socklen_t length = sizeof bound;
    if (getsockname(fd, (struct sockaddr *)&bound, &length) != 0) return -1;
    if (bound.ss_family == AF_INET) {
        struct sockaddr_in *v4 = (struct sockaddr_in *)&bound;
        if (inet_ntop(AF_INET, &v4->sin_addr, address, (socklen_t)address_len) == NULL) return -1;
        *port = ntohs(v4->sin_port);
        return 0;
    }
    if (bound.ss_family == AF_INET6) {
        struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&bound;
        if (inet_ntop(AF_INET6, &v6->sin6_addr, address, (socklen_t)address_len) == NULL) return -1;
        *port = ntohs(v6->sin6_port);
        return 0;
    }
    return -1;
}

static void *watch(void *argument) {
    ilotoki_http_server *server = argument;
    pthread_mutex_lock(&server->lock);
    while (server->watchdog_running) {
        double now = now_seconds();
        for (tracked_connection *c = server->connections; c != NULL; c = c->next) {
            if (!c->answering && !c->cut && now - c->since > server->config.request_seconds) {
                shutdown(c->fd, SHUT_RDWR); /* its thread sees the end and closes it */
                c->cut = 1;
            }
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 250 * 1000 * 1000;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec += 1;
            until.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&server->watchdog_wake, &server->lock, &until);
    }
    pthread_mutex_unlock(&server->lock);
    return NULL;
}

static void on_connection(void *cls, struct MHD_Connection *connection, void **socket_context,
                          enum MHD_ConnectionNotificationCode code) {
    ilotoki_http_server *server = cls;
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        tracked_connection *c = calloc(1, sizeof *c);
        if (c == NULL) return;
        const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        c->fd = info != NULL ? info->connect_fd : -1;
        c->since = now_seconds();
        pthread_mutex_lock(&server->lock);
        c->next = server->connections;
        if (c->next != NULL) c->next->previous = c;
        server->connections = c;
        pthread_mutex_unlock(&server->lock);
        *socket_context = c;
    } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
        tracked_connection *c = *socket_context;
        if (c == NULL) return;
        pthread_mutex_lock(&server->lock);
        if (c->previous != NULL) c->previous->next = c->next;
        else server->connections = c->next;
        if (c->next != NULL) c->next->previous = c->previous;
        pthread_mutex_unlock(&server->lock);
        free(c);
        *socket_context = NULL;
    }
}

static tracked_connection *tracked(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info != NULL ? info->socket_context : NULL;
}

static void set_answering(ilotoki_http_server *server, struct MHD_Connection *connection, int answering) {
    tracked_connection *c = tracked(connection);
    if (c == NULL) return;
    pthread_mutex_lock(&server->lock);
    c->answering = answering;
    c->since = now_seconds();
    pthread_mutex_unlock(&server->lock);
}

/* Adds "Name: value\n" lines to a response. */
static void add_headers(struct MHD_Response *response, const char *headers) {
    if (headers == NULL) return;
    const char *line = headers;
    while (*line != '\0') {
        const char *end = strchr(line, '\n');
        size_t length = end != NULL ? (size_t)(end - line) : strlen(line);
        const char *colon = memchr(line, ':', length);
        if (colon != NULL) {
            char *name = strndup(line, (size_t)(colon - line));
            const char *value = colon + 1;
            while (value < line + length && *value == ' ') value++;
            char *copy = strndup(value, (size_t)(line + length - value));
            if (name != NULL && copy != NULL) MHD_add_response_header(response, name, copy);
            free(name);
            free(copy);
        }
        if (end == NULL) break;
        line = end + 1;
    }
}

static enum MHD_Result queue(struct MHD_Connection *connection, int status, const uint8_t *body, size_t length,
                             const char *headers) {
    struct MHD_Response *response =
        MHD_create_response_from_buffer(length, (void *)(body != NULL ? body : (const uint8_t *)""), MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return MHD_NO;
    add_headers(response, headers);
    enum MHD_Result result = MHD_queue_response(connection, (unsigned int)status, response);
    MHD_destroy_response(response);
    return result;
}

typedef struct answer {
    struct MHD_Connection *connection;
    enum MHD_Result result;
    int given;
} answer;

static void respond(void *respond_context, const ilotoki_http_response *response) {
    answer *a = respond_context;
    if (a->given) return;
    a->given = 1;
    a->result = queue(a->connection, response->status, response->body, response->body_length, response->headers);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                  const char *version, const char *upload_data, size_t *upload_data_size,
                                  void **request_context) {
    (void)version;
    ilotoki_http_server *server = cls;
    request_state *state = *request_context;
    if (state == NULL) {
        state = calloc(1, sizeof *state);
        if (state == NULL) return MHD_NO;
        *request_context = state;
        const char *declared = MHD_lookup_connection_value(connection, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (declared != NULL && strtoull(declared, NULL, 10) > server->config.max_body_bytes) {
            state->refused = 1;
            return queue(connection, MHD_HTTP_CONTENT_TOO_LARGE, (const uint8_t *)server->too_large_body,
                         strlen(server->too_large_body), server->too_large_headers);
        }
        return MHD_YES;
    }
    if (*upload_data_size > 0) {
        size_t count = *upload_data_size;
        *upload_data_size = 0;
        if (state->refused) return MHD_YES;
        if (count > server->config.max_body_bytes - state->length) {
            state->refused = 1;
            free(state->body);
            state->body = NULL;
            state->length = state->capacity = 0;
            return queue(connection, MHD_HTTP_CONTENT_TOO_LARGE, (const uint8_t *)server->too_large_body,
                         strlen(server->too_large_body), server->too_large_headers);
        }
        if (state->length + count > state->capacity) {
            size_t capacity = state->capacity > 0 ? state->capacity : 4096;
            while (capacity < state->length + count) capacity *= 2;
            if (capacity > server->config.max_body_bytes) capacity = server->config.max_body_bytes;
            uint8_t *grown = realloc(state->body, capacity);
            if (grown == NULL) return MHD_NO;
            state->body = grown;
            state->capacity = capacity;
        }
        memcpy(state->body + state->length, upload_data, count);
        state->length += count;
        return MHD_YES;
    }
    if (state->refused) return MHD_YES; /* answered already */
    ilotoki_http_request request = {
        .method = method, .path = url, .body = state->body, .body_length = state->length, .connection = connection};
    answer a = {.connection = connection, .result = MHD_NO, .given = 0};
    set_answering(server, connection, 1);
    server->config.handler(server->config.context, &request, respond, &a);
    set_answering(server, connection, 0);
    return a.given ? a.result : MHD_NO;
}

static void on_completed(void *cls, struct MHD_Connection *connection, void **request_context,
                         enum MHD_RequestTerminationCode code) {
    (void)cls;
    (void)connection;
    (void)code;
    request_state *state = *request_context;
    if (state == NULL) return;
    free(state->body);
    free(state);
    *request_context = NULL;
}

ilotoki_http_server *ilotoki_http_start(const ilotoki_http_config *config, char *error, size_t error_len) {
    if (config == NULL || config->handler == NULL || config->listen_count == 0 || config->listen_count > MAX_DAEMONS) {
        set_error(error, error_len, "%s", "no handler or no listening socket");
        return NULL;
    }
    ilotoki_http_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        set_error(error, error_len, "%s", "out of memory");
        return NULL;
    }
    server->config = *config;
    server->config.listen_fds = NULL;
    server->too_large_body = strdup(config->too_large_body != NULL ? config->too_large_body : "");
    server->too_large_headers = strdup(config->too_large_headers != NULL ? config->too_large_headers : "");
    pthread_mutex_init(&server->lock, NULL);
    pthread_cond_init(&server->watchdog_wake, NULL);
    /* Each address takes the whole limit: a client reaches one of them, and a limit split
     * between 127.0.0.1 and ::1 turned half of the connections away from one client's. */
    unsigned per_daemon = config->max_connections > 0 ? config->max_connections : 1;
    for (size_t i = 0; i < config->listen_count; i++) {
        /* No MHD_USE_ERROR_LOG: libmicrohttpd's own messages would reach the terminal. */
        server->daemons[i] = MHD_start_daemon(
            MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC, 0, NULL, NULL,
            on_request, server, MHD_OPTION_LISTEN_SOCKET, (MHD_socket)config->listen_fds[i],
            MHD_OPTION_CONNECTION_LIMIT, per_daemon, MHD_OPTION_CONNECTION_TIMEOUT, config->idle_seconds,
            MHD_OPTION_CONNECTION_MEMORY_LIMIT, config->max_header_bytes, MHD_OPTION_NOTIFY_COMPLETED, on_completed,
            server, MHD_OPTION_NOTIFY_CONNECTION, on_connection, server, MHD_OPTION_END);
        if (server->daemons[i] == NULL) {
            set_error(error, error_len, "%s", "libmicrohttpd could not start serving on the socket");
            server->daemon_count = i;
            ilotoki_http_stop(server);
            return NULL;
        }
        server->daemon_count = i + 1;
    }
    server->watchdog_running = 1;
    if (pthread_create(&server->watchdog, NULL, watch, server) != 0) server->watchdog_running = 0;
    return server;
}

void ilotoki_http_quiesce(ilotoki_http_server *server) {
    if (server == NULL) return;
    for (size_t i = 0; i < server->daemon_count; i++) {
        MHD_socket fd = MHD_quiesce_daemon(server->daemons[i]);
        if (fd != MHD_INVALID_SOCKET) close(fd);
    }
}

void ilotoki_http_stop(ilotoki_http_server *server) {
    if (server == NULL) return;
    if (server->watchdog_running) {
        pthread_mutex_lock(&server->lock);
        server->watchdog_running = 0;
        pthread_cond_signal(&server->watchdog_wake);
        pthread_mutex_unlock(&server->lock);
        pthread_join(server->watchdog, NULL);
    }
    for (size_t i = 0; i < server->daemon_count; i++) MHD_stop_daemon(server->daemons[i]);
    pthread_mutex_destroy(&server->lock);
    pthread_cond_destroy(&server->watchdog_wake);
    free(server->too_large_body);
    free(server->too_large_headers);
    free(server);
}

const char *ilotoki_http_header(const ilotoki_http_request *request, const char *name) {
    return MHD_lookup_connection_value(request->connection, MHD_HEADER_KIND, name);
}

const char *ilotoki_http_query(const ilotoki_http_request *request, const char *name) {
    return MHD_lookup_connection_value(request->connection, MHD_GET_ARGUMENT_KIND, name);
}

typedef struct each_context {
    void (*each)(void *context, const char *name, const char *value);
    void *context;
} each_context;

static enum MHD_Result visit(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
    (void)kind;
    each_context *e = cls;
    if (key != NULL) e->each(e->context, key, value != NULL ? value : "");
    return MHD_YES;
}

void ilotoki_http_each(const ilotoki_http_request *request, int query,
                       void (*each)(void *context, const char *name, const char *value), void *context) {
    each_context e = {.each = each, .context = context};
    MHD_get_connection_values(request->connection, query ? MHD_GET_ARGUMENT_KIND : MHD_HEADER_KIND, visit, &e);
}

typedef struct form_context {
    void (*each)(void *context, const char *name, const char *filename, const char *data, size_t length, uint64_t offset);
    void *context;
} form_context;

static enum MHD_Result visit_field(void *cls, enum MHD_ValueKind kind, const char *key, const char *filename,
                                   const char *content_type, const char *transfer_encoding, const char *data,
                                   uint64_t offset, size_t size) {
    (void)kind;
    (void)content_type;
    (void)transfer_encoding;
    form_context *f = cls;
    if (key != NULL) f->each(f->context, key, filename, data != NULL ? data : "", size, offset);
    return MHD_YES;
}

int ilotoki_http_form(const ilotoki_http_request *request,
                      void (*each)(void *context, const char *name, const char *filename, const char *data,
                                   size_t length, uint64_t offset),
                      void *context) {
    form_context f = {.each = each, .context = context};
    struct MHD_PostProcessor *processor = MHD_create_post_processor(request->connection, 16 * 1024, visit_field, &f);
    if (processor == NULL) return -1;
    enum MHD_Result result = MHD_YES;
    if (request->body_length > 0) result = MHD_post_process(processor, (const char *)request->body, request->body_length);
    enum MHD_Result ended = MHD_destroy_post_processor(processor);
    return result == MHD_YES && ended == MHD_YES ? 0 : -1;
}

int ilotoki_http_peer_closed(const ilotoki_http_request *request) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(request->connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (info == NULL) return 1;
    struct pollfd p = {.fd = info->connect_fd, .events = POLLRDHUP};
    if (poll(&p, 1, 0) < 0) return 0;
    return (p.revents & (POLLRDHUP | POLLHUP | POLLERR | POLLNVAL)) != 0;
}

const char *ilotoki_http_library_version(void) { return MHD_get_version(); }
