from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.endpoint_error_body import EndpointErrorBody
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    link: str,
    *,
    title: str,
    subtitle: str | Unset = UNSET,
    image: str | Unset = UNSET,
    exp: str | Unset = UNSET,
    key: str,
    sig: str,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["title"] = title

    params["subtitle"] = subtitle

    params["image"] = image

    params["exp"] = exp

    params["key"] = key

    params["sig"] = sig

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/r/{link}".format(
            link=quote(str(link), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | EndpointErrorBody | ValidationErrorBody | str | None:
    if response.status_code == 200:
        response_200 = cast(str, response.content)
        return response_200

    if response.status_code == 302:
        response_302 = cast(Any, None)
        return response_302

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = ValidationErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 403:
        response_403 = EndpointErrorBody.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = EndpointErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 503:
        response_503 = EndpointErrorBody.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | EndpointErrorBody | ValidationErrorBody | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    link: str,
    *,
    client: AuthenticatedClient | Client,
    title: str,
    subtitle: str | Unset = UNSET,
    image: str | Unset = UNSET,
    exp: str | Unset = UNSET,
    key: str,
    sig: str,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | EndpointErrorBody | ValidationErrorBody | str]:
    """A signed render link: rendered on its first fetch (one unit of the owner quota), served from the
    store after; with the quota used up, an earlier card of the link or the preset fallback card. No
    token: the signature authorizes it (docs/render-links.md).

    Args:
        link (str):
        title (str):
        subtitle (str | Unset):
        image (str | Unset):
        exp (str | Unset):
        key (str):
        sig (str):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | EndpointErrorBody | ValidationErrorBody | str]
    """

    kwargs = _get_kwargs(
        link=link,
        title=title,
        subtitle=subtitle,
        image=image,
        exp=exp,
        key=key,
        sig=sig,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    link: str,
    *,
    client: AuthenticatedClient | Client,
    title: str,
    subtitle: str | Unset = UNSET,
    image: str | Unset = UNSET,
    exp: str | Unset = UNSET,
    key: str,
    sig: str,
    if_none_match: str | Unset = UNSET,
) -> Any | EndpointErrorBody | ValidationErrorBody | str | None:
    """A signed render link: rendered on its first fetch (one unit of the owner quota), served from the
    store after; with the quota used up, an earlier card of the link or the preset fallback card. No
    token: the signature authorizes it (docs/render-links.md).

    Args:
        link (str):
        title (str):
        subtitle (str | Unset):
        image (str | Unset):
        exp (str | Unset):
        key (str):
        sig (str):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | EndpointErrorBody | ValidationErrorBody | str
    """

    return sync_detailed(
        link=link,
        client=client,
        title=title,
        subtitle=subtitle,
        image=image,
        exp=exp,
        key=key,
        sig=sig,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    link: str,
    *,
    client: AuthenticatedClient | Client,
    title: str,
    subtitle: str | Unset = UNSET,
    image: str | Unset = UNSET,
    exp: str | Unset = UNSET,
    key: str,
    sig: str,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | EndpointErrorBody | ValidationErrorBody | str]:
    """A signed render link: rendered on its first fetch (one unit of the owner quota), served from the
    store after; with the quota used up, an earlier card of the link or the preset fallback card. No
    token: the signature authorizes it (docs/render-links.md).

    Args:
        link (str):
        title (str):
        subtitle (str | Unset):
        image (str | Unset):
        exp (str | Unset):
        key (str):
        sig (str):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | EndpointErrorBody | ValidationErrorBody | str]
    """

    kwargs = _get_kwargs(
        link=link,
        title=title,
        subtitle=subtitle,
        image=image,
        exp=exp,
        key=key,
        sig=sig,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    link: str,
    *,
    client: AuthenticatedClient | Client,
    title: str,
    subtitle: str | Unset = UNSET,
    image: str | Unset = UNSET,
    exp: str | Unset = UNSET,
    key: str,
    sig: str,
    if_none_match: str | Unset = UNSET,
) -> Any | EndpointErrorBody | ValidationErrorBody | str | None:
    """A signed render link: rendered on its first fetch (one unit of the owner quota), served from the
    store after; with the quota used up, an earlier card of the link or the preset fallback card. No
    token: the signature authorizes it (docs/render-links.md).

    Args:
        link (str):
        title (str):
        subtitle (str | Unset):
        image (str | Unset):
        exp (str | Unset):
        key (str):
        sig (str):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | EndpointErrorBody | ValidationErrorBody | str
    """

    return (
        await asyncio_detailed(
            link=link,
            client=client,
            title=title,
            subtitle=subtitle,
            image=image,
            exp=exp,
            key=key,
            sig=sig,
            if_none_match=if_none_match,
        )
    ).parsed
