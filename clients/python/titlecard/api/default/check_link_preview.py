from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.auth_error_body import AuthErrorBody
from ...models.check_link_preview_response_201 import CheckLinkPreviewResponse201
from ...models.endpoint_error_body import EndpointErrorBody
from ...models.preview_request import PreviewRequest
from ...models.quota_error_body import QuotaErrorBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import Response


def _get_kwargs(
    *,
    body: PreviewRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/previews",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    AuthErrorBody
    | CheckLinkPreviewResponse201
    | EndpointErrorBody
    | QuotaErrorBody
    | ValidationErrorBody
    | None
):
    if response.status_code == 201:
        response_201 = CheckLinkPreviewResponse201.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = ValidationErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = AuthErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = EndpointErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 429:
        response_429 = QuotaErrorBody.from_dict(response.json())

        return response_429

    if response.status_code == 500:
        response_500 = EndpointErrorBody.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = EndpointErrorBody.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[
    AuthErrorBody
    | CheckLinkPreviewResponse201
    | EndpointErrorBody
    | QuotaErrorBody
    | ValidationErrorBody
]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PreviewRequest,
) -> Response[
    AuthErrorBody
    | CheckLinkPreviewResponse201
    | EndpointErrorBody
    | QuotaErrorBody
    | ValidationErrorBody
]:
    """Check how a link will preview on X, Facebook, LinkedIn, Slack, Discord, iMessage, WhatsApp,
    Telegram, Mastodon and Bluesky: the tags, the image, each platform's card, and the problems with how
    to fix them. No quota; 60 a minute per workspace with the previews (docs/previews.md).

    Args:
        body (PreviewRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | CheckLinkPreviewResponse201 | EndpointErrorBody | QuotaErrorBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: PreviewRequest,
) -> (
    AuthErrorBody
    | CheckLinkPreviewResponse201
    | EndpointErrorBody
    | QuotaErrorBody
    | ValidationErrorBody
    | None
):
    """Check how a link will preview on X, Facebook, LinkedIn, Slack, Discord, iMessage, WhatsApp,
    Telegram, Mastodon and Bluesky: the tags, the image, each platform's card, and the problems with how
    to fix them. No quota; 60 a minute per workspace with the previews (docs/previews.md).

    Args:
        body (PreviewRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | CheckLinkPreviewResponse201 | EndpointErrorBody | QuotaErrorBody | ValidationErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: PreviewRequest,
) -> Response[
    AuthErrorBody
    | CheckLinkPreviewResponse201
    | EndpointErrorBody
    | QuotaErrorBody
    | ValidationErrorBody
]:
    """Check how a link will preview on X, Facebook, LinkedIn, Slack, Discord, iMessage, WhatsApp,
    Telegram, Mastodon and Bluesky: the tags, the image, each platform's card, and the problems with how
    to fix them. No quota; 60 a minute per workspace with the previews (docs/previews.md).

    Args:
        body (PreviewRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | CheckLinkPreviewResponse201 | EndpointErrorBody | QuotaErrorBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: PreviewRequest,
) -> (
    AuthErrorBody
    | CheckLinkPreviewResponse201
    | EndpointErrorBody
    | QuotaErrorBody
    | ValidationErrorBody
    | None
):
    """Check how a link will preview on X, Facebook, LinkedIn, Slack, Discord, iMessage, WhatsApp,
    Telegram, Mastodon and Bluesky: the tags, the image, each platform's card, and the problems with how
    to fix them. No quota; 60 a minute per workspace with the previews (docs/previews.md).

    Args:
        body (PreviewRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | CheckLinkPreviewResponse201 | EndpointErrorBody | QuotaErrorBody | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
