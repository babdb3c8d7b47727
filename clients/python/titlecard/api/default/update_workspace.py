from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.auth_error_body import AuthErrorBody
from ...models.endpoint_error_body import EndpointErrorBody
from ...models.update_workspace_request import UpdateWorkspaceRequest
from ...models.update_workspace_response_200 import UpdateWorkspaceResponse200
from ...models.validation_error_body import ValidationErrorBody
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    body: UpdateWorkspaceRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/workspaces/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> (
    AuthErrorBody
    | EndpointErrorBody
    | UpdateWorkspaceResponse200
    | ValidationErrorBody
    | None
):
    if response.status_code == 200:
        response_200 = UpdateWorkspaceResponse200.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = EndpointErrorBody.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = EndpointErrorBody.from_dict(response.json())

        return response_409

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
    AuthErrorBody | EndpointErrorBody | UpdateWorkspaceResponse200 | ValidationErrorBody
]:
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
    body: UpdateWorkspaceRequest,
) -> Response[
    AuthErrorBody | EndpointErrorBody | UpdateWorkspaceResponse200 | ValidationErrorBody
]:
    """Rename (workspace:admin) or hand over to a member (owners).

    Args:
        id (str):
        body (UpdateWorkspaceRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | EndpointErrorBody | UpdateWorkspaceResponse200 | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: UpdateWorkspaceRequest,
) -> (
    AuthErrorBody
    | EndpointErrorBody
    | UpdateWorkspaceResponse200
    | ValidationErrorBody
    | None
):
    """Rename (workspace:admin) or hand over to a member (owners).

    Args:
        id (str):
        body (UpdateWorkspaceRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | EndpointErrorBody | UpdateWorkspaceResponse200 | ValidationErrorBody
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: UpdateWorkspaceRequest,
) -> Response[
    AuthErrorBody | EndpointErrorBody | UpdateWorkspaceResponse200 | ValidationErrorBody
]:
    """Rename (workspace:admin) or hand over to a member (owners).

    Args:
        id (str):
        body (UpdateWorkspaceRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[AuthErrorBody | EndpointErrorBody | UpdateWorkspaceResponse200 | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: UpdateWorkspaceRequest,
) -> (
    AuthErrorBody
    | EndpointErrorBody
    | UpdateWorkspaceResponse200
    | ValidationErrorBody
    | None
):
    """Rename (workspace:admin) or hand over to a member (owners).

    Args:
        id (str):
        body (UpdateWorkspaceRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        AuthErrorBody | EndpointErrorBody | UpdateWorkspaceResponse200 | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
