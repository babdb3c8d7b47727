from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.auth_error_body import AuthErrorBody
from ...models.endpoint_error_body import EndpointErrorBody
from ...models.list_site_fetches_response_200 import ListSiteFetchesResponse200
from ...types import Response


def _get_kwargs(
    id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/sites/{id}/fetches".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> AuthErrorBody | EndpointErrorBody | ListSiteFetchesResponse200 | None:
    if response.status_code == 200:
        response_200 = ListSiteFetchesResponse200.from_dict(response.json())

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
) -> Response[AuthErrorBody | EndpointErrorBody | ListSiteFetchesResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[AuthErrorBody | EndpointErrorBody | ListSiteFetchesResponse200]:
    """Which crawler has which card: per recent page, each platform's last fetch of its card, the version
    it got and whether it is the current one (docs/previews.md).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | EndpointErrorBody | ListSiteFetchesResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> AuthErrorBody | EndpointErrorBody | ListSiteFetchesResponse200 | None:
    """Which crawler has which card: per recent page, each platform's last fetch of its card, the version
    it got and whether it is the current one (docs/previews.md).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | EndpointErrorBody | ListSiteFetchesResponse200
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[AuthErrorBody | EndpointErrorBody | ListSiteFetchesResponse200]:
    """Which crawler has which card: per recent page, each platform's last fetch of its card, the version
    it got and whether it is the current one (docs/previews.md).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | EndpointErrorBody | ListSiteFetchesResponse200]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
) -> AuthErrorBody | EndpointErrorBody | ListSiteFetchesResponse200 | None:
    """Which crawler has which card: per recent page, each platform's last fetch of its card, the version
    it got and whether it is the current one (docs/previews.md).

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | EndpointErrorBody | ListSiteFetchesResponse200
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
