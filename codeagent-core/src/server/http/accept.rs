//! The accept loop behind [`Server::serve_http_on`](crate::server::Server::serve_http_on):
//! HTTP/1.1 connections served by hyper with `TCP_NODELAY` and a deadline for
//! each request's headers, so a client that sends nothing, or trickles its
//! headers, cannot hold a connection open.

use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;

/// How long to wait before accepting again when the process is out of file
/// descriptors (or another resource accepting needs).
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Serves `router` on every connection `listener` accepts, until the task is dropped.
pub(crate) async fn serve(listener: TcpListener, router: Router, header_timeout: Duration) -> std::io::Result<()> {
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(error) => {
                // A connection reset before it was accepted, or no descriptor
                // left: neither ends the server.
                tracing::debug!("accepting a connection failed: {error}");
                tokio::time::sleep(ACCEPT_BACKOFF).await;
                continue;
            }
        };
        // Without it, an SSE event waits for the client's delayed ACK of the
        // previous write (some 40 ms); see `Server::serve_http_on`.
        if let Err(error) = stream.set_nodelay(true) {
            tracing::debug!("could not set TCP_NODELAY on a connection: {error}");
        }
        // Each request carries the client's address, as axum's
        // `into_make_service_with_connect_info` gives it (the per-client
        // session limit keys on it).
        let inner = TowerToHyperService::new(router.clone());
        let service = hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
            request.extensions_mut().insert(ConnectInfo(peer));
            hyper::service::Service::call(&inner, request)
        });
        tokio::spawn(async move {
            let mut builder = http1::Builder::new();
            // The deadline runs while a request's headers are awaited,
            // including on an idle kept-alive connection.
            builder.timer(TokioTimer::new()).header_read_timeout(header_timeout);
            let connection = builder.serve_connection(TokioIo::new(stream), service).with_upgrades();
            if let Err(error) = connection.await {
                tracing::debug!("a connection ended with an error: {error}");
            }
        });
    }
}
