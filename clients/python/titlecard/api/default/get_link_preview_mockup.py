from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.auth_error_body import AuthErrorBody
from ...models.endpoint_error_body import EndpointErrorBody
from ...models.get_link_preview_mockup_platform import GetLinkPreviewMockupPlatform
from ...types import Response


def _get_kwargs(
    id: str,
    platform: GetLinkPreviewMockupPlatform,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/previews/{id}/{platform}.png".format(
            id=quote(str(id), safe=""),
            platform=quote(str(platform), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AuthErrorBody | EndpointErrorBody | str | None:
    if response.status_code == 200:
        response_200 = cast(str, response.content)
        return response_200

    if response.status_code == 401:
        response_401 = AuthErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = EndpointErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = EndpointErrorBody.from_dict(response.json())

        return response_404

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
) -> Response[AuthErrorBody | EndpointErrorBody | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    platform: GetLinkPreviewMockupPlatform,
    *,
    client: AuthenticatedClient | Client,
) -> Response[AuthErrorBody | EndpointErrorBody | str]:
    """A check's preview as the platform will show it: a PNG mock-up, 560 px wide.

    Args:
        id (str):
        platform (GetLinkPreviewMockupPlatform):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | EndpointErrorBody | str]
    """

    kwargs = _get_kwargs(
        id=id,
        platform=platform,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    platform: GetLinkPreviewMockupPlatform,
    *,
    client: AuthenticatedClient | Client,
) -> AuthErrorBody | EndpointErrorBody | str | None:
    """A check's preview as the platform will show it: a PNG mock-up, 560 px wide.

    Args:
        id (str):
        platform (GetLinkPreviewMockupPlatform):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | EndpointErrorBody | str
    """

    return sync_detailed(
        id=id,
        platform=platform,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    platform: GetLinkPreviewMockupPlatform,
    *,
    client: AuthenticatedClient | Client,
) -> Response[AuthErrorBody | EndpointErrorBody | str]:
    """A check's preview as the platform will show it: a PNG mock-up, 560 px wide.

    Args:
        id (str):
        platform (GetLinkPreviewMockupPlatform):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | EndpointErrorBody | str]
    """

    kwargs = _get_kwargs(
        id=id,
        platform=platform,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    platform: GetLinkPreviewMockupPlatform,
    *,
    client: AuthenticatedClient | Client,
) -> AuthErrorBody | EndpointErrorBody | str | None:
    """A check's preview as the platform will show it: a PNG mock-up, 560 px wide.

    Args:
        id (str):
        platform (GetLinkPreviewMockupPlatform):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | EndpointErrorBody | str
    """

    return (
        await asyncio_detailed(
            id=id,
            platform=platform,
            client=client,
        )
    ).parsed
