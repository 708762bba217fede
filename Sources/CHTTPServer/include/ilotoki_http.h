// A small HTTP server over GNU libmicrohttpd for `ilotoki serve`: libmicrohttpd parses HTTP
// and runs the connections (a thread each); this layer gathers each request's body within a
// limit, hands the whole request to one handler, and closes connections that take too long
// to send a request (a client sending a byte a second cannot hold a connection).
#ifndef ILOTOKI_HTTP_H
#define ILOTOKI_HTTP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A request whose headers and body have all arrived. */
typedef struct ilotoki_http_request {
    const char *method;  /**< "GET", "POST", … */
    const char *path;    /**< the URL's path, without its query */
    const uint8_t *body; /**< the body (may be NULL when empty) */
    size_t body_length;
    void *connection; /**< libmicrohttpd's connection, for the functions below */
} ilotoki_http_request;

/** What the handler answers. The body is copied. */
typedef struct ilotoki_http_response {
    int status;
    const uint8_t *body;
    size_t body_length;
    /** Header lines "Name: value", each ended by '\n' (Content-Type among them), or NULL. */
    const char *headers;
} ilotoki_http_response;

/**
 * Answers one request, on the connection's own thread; it may block (a translation) and
 * should watch `ilotoki_http_peer_closed` while it does. `respond` must be called once with
 * the answer before returning; `respond_context` goes with it.
 */
typedef void (*ilotoki_http_handler)(void *context, const ilotoki_http_request *request,
                                     void (*respond)(void *respond_context, const ilotoki_http_response *response),
                                     void *respond_context);

typedef struct ilotoki_http_config {
    /** Listening sockets (from `ilotoki_http_listen`, or handed over by systemd). */
    const int *listen_fds;
    size_t listen_count;
    /** Bodies larger than this are answered 413 without being read. */
    size_t max_body_bytes;
    /** Bytes a connection may use for the request line and headers (more: 431 or 413). */
    size_t max_header_bytes;
    /** Connections open at once on each listening socket; more are closed at accept. */
    unsigned max_connections;
    /** A connection idle this long is closed. */
    unsigned idle_seconds;
    /** A request must have arrived whole (headers and body) this long after it began or after
     *  the connection's last answer; otherwise its connection is closed. */
    unsigned request_seconds;
    /** The answer to a body over `max_body_bytes` (413), with its headers. */
    const char *too_large_body;
    const char *too_large_headers;
    ilotoki_http_handler handler;
    void *context;
} ilotoki_http_config;

typedef struct ilotoki_http_server ilotoki_http_server;

/**
 * A listening TCP socket on `address` (a numeric IPv4 or IPv6 address) and `port` (0: any
 * free one). Returns the descriptor and sets `*bound_port`, or -1 with `error` saying why.
 */
int ilotoki_http_listen(const char *address, int port, int *bound_port, char *error, size_t error_len);

/** The numeric address and port a listening socket is bound to (a socket systemd handed
 *  over); 0 on success, -1 when it is not an IPv4 or IPv6 socket. */
int ilotoki_http_socket_address(int fd, char *address, size_t address_len, int *port);

/** Starts serving; NULL with `error` when libmicrohttpd cannot start. */
ilotoki_http_server *ilotoki_http_start(const ilotoki_http_config *config, char *error, size_t error_len);

/** Stops accepting connections; those open go on until their requests are answered. */
void ilotoki_http_quiesce(ilotoki_http_server *server);

/** Closes every connection and frees the server; waits for every handler to return. */
void ilotoki_http_stop(ilotoki_http_server *server);

/** A request header's value (the name in any case), or NULL. */
const char *ilotoki_http_header(const ilotoki_http_request *request, const char *name);

/** An argument of the URL's query, decoded, or NULL. */
const char *ilotoki_http_query(const ilotoki_http_request *request, const char *name);

/** Calls `each` with every header (`query` 0) or every argument of the URL's query (1). */
void ilotoki_http_each(const ilotoki_http_request *request, int query,
                       void (*each)(void *context, const char *name, const char *value), void *context);

/**
 * Reads the request's body as a form with libmicrohttpd's post processor (multipart/form-data
 * or application/x-www-form-urlencoded, from the request's Content-Type): `each` gets every
 * field's data in pieces, with its name, its file name (NULL when not a file) and the piece's
 * offset. Returns 0, or -1 when the body is not such a form.
 */
int ilotoki_http_form(const ilotoki_http_request *request,
                      void (*each)(void *context, const char *name, const char *filename, const char *data,
                                   size_t length, uint64_t offset),
                      void *context);

/** Whether the client has closed its end or the connection broke (a client that gave up). */
int ilotoki_http_peer_closed(const ilotoki_http_request *request);

/** libmicrohttpd's version. */
const char *ilotoki_http_library_version(void);

#ifdef __cplusplus
}
#endif

#endif
