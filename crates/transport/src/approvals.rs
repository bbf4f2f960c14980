//! The approvals endpoints (SPEC §15): `GET /v1/approvals?state=pending`
//! lists the caller's tenant's approvals, `GET /v1/approvals/{id}` shows
//! one, and `POST /v1/approvals/{id}` answers one (`approve` or `deny`,
//! with a note). Each takes a key with the `guardrails:approve` scope, and
//! a key never answers the approval of a call it sent.

use axum::extract::Path;
use axum::http::StatusCode;

use crate::api::{ApiError, ApproveScope, Authorized, Wire};
use crate::wire::{ApprovalAnswer, ApprovalDecision, ApprovalList, ApprovalView, ErrorCode};
use palisade_checks::approvals::{Answer, ApprovalState};

/// The longest note, in characters.
const MAX_NOTE_CHARS: usize = 2000;

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuery {
    state: Option<String>,
}

fn unavailable(e: impl std::fmt::Display) -> ApiError {
    ApiError::Approval {
        status: StatusCode::SERVICE_UNAVAILABLE,
        code: ErrorCode::ApprovalsUnavailable,
        message: e.to_string(),
    }
}

/// `GET /v1/approvals?state=STATE`: the tenant's approvals not yet
/// expired, oldest first; with `state`, those in it.
pub(crate) async fn list(
    Authorized(caller, ..): Authorized<ApproveScope>,
    query: Result<axum::extract::Query<ListQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<axum::Json<ApprovalList>, ApiError> {
    let state = match query {
        Ok(q) => q.0.state,
        Err(e) => return Err(ApiError::invalid(e.body_text())),
    };
    let state = match state.as_deref() {
        None => None,
        Some(name) => Some(ApprovalState::from_name(name).ok_or_else(|| {
            ApiError::invalid(format!(
                "`state`: no state `{name}`; states are `pending`, `approved`, `denied` and `used`"
            ))
        })?),
    };
    let approvals = caller
        .guard
        .approvals(&caller.tenant)
        .await
        .map_err(unavailable)?;
    Ok(axum::Json(ApprovalList {
        tenant: caller.tenant,
        approvals: approvals
            .iter()
            .filter(|a| state.is_none_or(|s| a.state == s))
            .map(ApprovalView::from)
            .collect(),
    }))
}

/// `GET /v1/approvals/{id}`: one approval of the tenant.
pub(crate) async fn show(
    Authorized(caller, ..): Authorized<ApproveScope>,
    Path(id): Path<String>,
) -> Result<axum::Json<ApprovalView>, ApiError> {
    let approvals = caller
        .guard
        .approvals(&caller.tenant)
        .await
        .map_err(unavailable)?;
    approvals
        .iter()
        .find(|a| a.id == id)
        .map(|a| axum::Json(ApprovalView::from(a)))
        .ok_or_else(|| ApiError::Approval {
            status: StatusCode::NOT_FOUND,
            code: ErrorCode::ApprovalNotFound,
            message: format!("no approval `{id}` for this tenant (it may have expired)"),
        })
}

/// `POST /v1/approvals/{id}`: a person's answer, kept and audited.
pub(crate) async fn answer(
    Authorized(caller, ..): Authorized<ApproveScope>,
    Path(id): Path<String>,
    Wire(body): Wire<ApprovalAnswer>,
) -> Result<axum::Json<ApprovalView>, ApiError> {
    if let Some(note) = &body.note
        && note.chars().count() > MAX_NOTE_CHARS
    {
        return Err(ApiError::invalid(format!(
            "`note`: at most {MAX_NOTE_CHARS} characters"
        )));
    }
    let answer = Answer::new(
        body.decision == ApprovalDecision::Approve,
        caller.key.clone(),
        body.note,
    );
    let answered = caller
        .guard
        .answer_approval(&caller.tenant, &id, &answer)
        .await?;
    Ok(axum::Json(ApprovalView::from(&answered)))
}
