from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.auth_error_body import AuthErrorBody
from ...models.create_token_request import CreateTokenRequest
from ...models.create_token_response_200 import CreateTokenResponse200
from ...models.create_token_response_201 import CreateTokenResponse201
from ...models.endpoint_error_body import EndpointErrorBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateTokenRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/tokens",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    AuthErrorBody
    | CreateTokenResponse200
    | CreateTokenResponse201
    | EndpointErrorBody
    | ValidationErrorBody
    | None
):
    if response.status_code == 200:
        response_200 = CreateTokenResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = CreateTokenResponse201.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = EndpointErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = EndpointErrorBody.from_dict(response.json())

        return response_409

    if response.status_code == 422:
        response_422 = EndpointErrorBody.from_dict(response.json())

        return response_422

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
    | CreateTokenResponse200
    | CreateTokenResponse201
    | EndpointErrorBody
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
    body: CreateTokenRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    AuthErrorBody
    | CreateTokenResponse200
    | CreateTokenResponse201
    | EndpointErrorBody
    | ValidationErrorBody
]:
    """Create an API token; the secret is returned only here.

    Args:
        idempotency_key (str | Unset):
        body (CreateTokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | CreateTokenResponse200 | CreateTokenResponse201 | EndpointErrorBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: CreateTokenRequest,
    idempotency_key: str | Unset = UNSET,
) -> (
    AuthErrorBody
    | CreateTokenResponse200
    | CreateTokenResponse201
    | EndpointErrorBody
    | ValidationErrorBody
    | None
):
    """Create an API token; the secret is returned only here.

    Args:
        idempotency_key (str | Unset):
        body (CreateTokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | CreateTokenResponse200 | CreateTokenResponse201 | EndpointErrorBody | ValidationErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateTokenRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    AuthErrorBody
    | CreateTokenResponse200
    | CreateTokenResponse201
    | EndpointErrorBody
    | ValidationErrorBody
]:
    """Create an API token; the secret is returned only here.

    Args:
        idempotency_key (str | Unset):
        body (CreateTokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | CreateTokenResponse200 | CreateTokenResponse201 | EndpointErrorBody | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: CreateTokenRequest,
    idempotency_key: str | Unset = UNSET,
) -> (
    AuthErrorBody
    | CreateTokenResponse200
    | CreateTokenResponse201
    | EndpointErrorBody
    | ValidationErrorBody
    | None
):
    """Create an API token; the secret is returned only here.

    Args:
        idempotency_key (str | Unset):
        body (CreateTokenRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | CreateTokenResponse200 | CreateTokenResponse201 | EndpointErrorBody | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
