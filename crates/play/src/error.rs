//! The API's errors: each a status code and a message, sent as
//! `{"error": "..."}`.

use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// An API error. Every variant is the client's doing or a capacity limit;
/// none is a bug, so none is a 500.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// 400: the request is not what the API reads (not JSON, a missing or
    /// mistyped field, an unknown field).
    #[error("{0}")]
    BadRequest(String),
    /// 404: no such game session (or no such path).
    #[error("{0}")]
    NotFound(String),
    /// 405: the path exists but not with this method.
    #[error("{0}")]
    MethodNotAllowed(String),
    /// 409: the request does not fit the game's state: an illegal move, not
    /// the human's turn, the game over, the engine still thinking, nothing
    /// to undo.
    #[error("{0}")]
    Conflict(String),
    /// 413: the body is larger than the server accepts.
    #[error("{0}")]
    TooLarge(String),
    /// 422: well-formed but unusable: an unknown game kind, a bad agent
    /// spec, a bad position or move line to start from.
    #[error("{0}")]
    Unprocessable(String),
    /// 503: the server holds as many sessions as it may.
    #[error("{0}")]
    Busy(String),
}

impl ApiError {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let mut response = (status, Json(serde_json::json!({ "error": self.to_string() }))).into_response();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("60"));
        }
        response
    }
}
