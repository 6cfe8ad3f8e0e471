//! The agent side (feature `agent`) against scripted providers on 127.0.0.1,
//! one file per wire format and one per behaviour; nothing leaves the machine.
//! The ignored tests validate every request body the mocks received with the
//! providers' own SDK types (`tests/providers/check_requests.py`).

#![allow(unreachable_pub)]

#[path = "../providers/checker.rs"]
mod checker;
mod mock;
mod scenario;

mod anthropic;
mod chat;
mod gemini;
mod responses;

mod replies;

mod callbacks;
mod cancel;
mod cli;
mod limits;
mod retries;
