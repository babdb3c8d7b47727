from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.auth_error_body import AuthErrorBody
from ...models.endpoint_error_body import EndpointErrorBody
from ...models.file_too_large_body import FileTooLargeBody
from ...models.generate_image_body import GenerateImageBody
from ...models.generate_image_response_201 import GenerateImageResponse201
from ...models.quota_error_body import QuotaErrorBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: GenerateImageBody,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/generate",
    }

    _kwargs["files"] = body.to_multipart()

    headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    AuthErrorBody
    | EndpointErrorBody
    | FileTooLargeBody
    | GenerateImageResponse201
    | QuotaErrorBody
    | ValidationErrorBody
    | None
):
    if response.status_code == 201:
        response_201 = GenerateImageResponse201.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = EndpointErrorBody.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = FileTooLargeBody.from_dict(response.json())

        return response_413

    if response.status_code == 422:
        response_422 = EndpointErrorBody.from_dict(response.json())

        return response_422

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
    | EndpointErrorBody
    | FileTooLargeBody
    | GenerateImageResponse201
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
    body: GenerateImageBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    AuthErrorBody
    | EndpointErrorBody
    | FileTooLargeBody
    | GenerateImageResponse201
    | QuotaErrorBody
    | ValidationErrorBody
]:
    """Generate a titled image (uses one unit of the monthly quota).

    Args:
        idempotency_key (str | Unset):
        body (GenerateImageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | EndpointErrorBody | FileTooLargeBody | GenerateImageResponse201 | QuotaErrorBody | ValidationErrorBody]
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
    body: GenerateImageBody,
    idempotency_key: str | Unset = UNSET,
) -> (
    AuthErrorBody
    | EndpointErrorBody
    | FileTooLargeBody
    | GenerateImageResponse201
    | QuotaErrorBody
    | ValidationErrorBody
    | None
):
    """Generate a titled image (uses one unit of the monthly quota).

    Args:
        idempotency_key (str | Unset):
        body (GenerateImageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | EndpointErrorBody | FileTooLargeBody | GenerateImageResponse201 | QuotaErrorBody | ValidationErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: GenerateImageBody,
    idempotency_key: str | Unset = UNSET,
) -> Response[
    AuthErrorBody
    | EndpointErrorBody
    | FileTooLargeBody
    | GenerateImageResponse201
    | QuotaErrorBody
    | ValidationErrorBody
]:
    """Generate a titled image (uses one unit of the monthly quota).

    Args:
        idempotency_key (str | Unset):
        body (GenerateImageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | EndpointErrorBody | FileTooLargeBody | GenerateImageResponse201 | QuotaErrorBody | ValidationErrorBody]
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
    body: GenerateImageBody,
    idempotency_key: str | Unset = UNSET,
) -> (
    AuthErrorBody
    | EndpointErrorBody
    | FileTooLargeBody
    | GenerateImageResponse201
    | QuotaErrorBody
    | ValidationErrorBody
    | None
):
    """Generate a titled image (uses one unit of the monthly quota).

    Args:
        idempotency_key (str | Unset):
        body (GenerateImageBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | EndpointErrorBody | FileTooLargeBody | GenerateImageResponse201 | QuotaErrorBody | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
