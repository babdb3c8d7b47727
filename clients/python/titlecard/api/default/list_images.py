from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.auth_error_body import AuthErrorBody
from ...models.endpoint_error_body import EndpointErrorBody
from ...models.list_images_order import ListImagesOrder
from ...models.list_images_response_200 import ListImagesResponse200
from ...models.list_images_sort import ListImagesSort
from ...models.validation_error_body import ValidationErrorBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    sort: ListImagesSort | Unset = ListImagesSort.CREATEDAT,
    order: ListImagesOrder | Unset = ListImagesOrder.DESC,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["offset"] = offset

    json_sort: str | Unset = UNSET
    if not isinstance(sort, Unset):
        json_sort = sort.value

    params["sort"] = json_sort

    json_order: str | Unset = UNSET
    if not isinstance(order, Unset):
        json_order = order.value

    params["order"] = json_order

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/images",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    AuthErrorBody
    | EndpointErrorBody
    | ListImagesResponse200
    | ValidationErrorBody
    | None
):
    if response.status_code == 200:
        response_200 = ListImagesResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ValidationErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = AuthErrorBody.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = EndpointErrorBody.from_dict(response.json())

        return response_403

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
    AuthErrorBody | EndpointErrorBody | ListImagesResponse200 | ValidationErrorBody
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
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    sort: ListImagesSort | Unset = ListImagesSort.CREATEDAT,
    order: ListImagesOrder | Unset = ListImagesOrder.DESC,
) -> Response[
    AuthErrorBody | EndpointErrorBody | ListImagesResponse200 | ValidationErrorBody
]:
    """List generated images. An empty query value (order=) counts as not sent: the default applies.

    Args:
        limit (int | Unset):  Default: 20.
        offset (int | Unset):  Default: 0.
        sort (ListImagesSort | Unset):  Default: ListImagesSort.CREATEDAT.
        order (ListImagesOrder | Unset):  Default: ListImagesOrder.DESC.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | EndpointErrorBody | ListImagesResponse200 | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        sort=sort,
        order=order,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    sort: ListImagesSort | Unset = ListImagesSort.CREATEDAT,
    order: ListImagesOrder | Unset = ListImagesOrder.DESC,
) -> (
    AuthErrorBody
    | EndpointErrorBody
    | ListImagesResponse200
    | ValidationErrorBody
    | None
):
    """List generated images. An empty query value (order=) counts as not sent: the default applies.

    Args:
        limit (int | Unset):  Default: 20.
        offset (int | Unset):  Default: 0.
        sort (ListImagesSort | Unset):  Default: ListImagesSort.CREATEDAT.
        order (ListImagesOrder | Unset):  Default: ListImagesOrder.DESC.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | EndpointErrorBody | ListImagesResponse200 | ValidationErrorBody
    """

    return sync_detailed(
        client=client,
        limit=limit,
        offset=offset,
        sort=sort,
        order=order,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    sort: ListImagesSort | Unset = ListImagesSort.CREATEDAT,
    order: ListImagesOrder | Unset = ListImagesOrder.DESC,
) -> Response[
    AuthErrorBody | EndpointErrorBody | ListImagesResponse200 | ValidationErrorBody
]:
    """List generated images. An empty query value (order=) counts as not sent: the default applies.

    Args:
        limit (int | Unset):  Default: 20.
        offset (int | Unset):  Default: 0.
        sort (ListImagesSort | Unset):  Default: ListImagesSort.CREATEDAT.
        order (ListImagesOrder | Unset):  Default: ListImagesOrder.DESC.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | EndpointErrorBody | ListImagesResponse200 | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        limit=limit,
        offset=offset,
        sort=sort,
        order=order,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    limit: int | Unset = 20,
    offset: int | Unset = 0,
    sort: ListImagesSort | Unset = ListImagesSort.CREATEDAT,
    order: ListImagesOrder | Unset = ListImagesOrder.DESC,
) -> (
    AuthErrorBody
    | EndpointErrorBody
    | ListImagesResponse200
    | ValidationErrorBody
    | None
):
    """List generated images. An empty query value (order=) counts as not sent: the default applies.

    Args:
        limit (int | Unset):  Default: 20.
        offset (int | Unset):  Default: 0.
        sort (ListImagesSort | Unset):  Default: ListImagesSort.CREATEDAT.
        order (ListImagesOrder | Unset):  Default: ListImagesOrder.DESC.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | EndpointErrorBody | ListImagesResponse200 | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            offset=offset,
            sort=sort,
            order=order,
        )
    ).parsed
