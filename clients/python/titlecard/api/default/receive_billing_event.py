from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.endpoint_error_body import EndpointErrorBody
from ...models.receive_billing_event_body import ReceiveBillingEventBody
from ...models.receive_billing_event_response_200 import ReceiveBillingEventResponse200
from ...models.validation_error_body import ValidationErrorBody
from ...types import Response


def _get_kwargs(
    *,
    body: ReceiveBillingEventBody,
    stripe_signature: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Stripe-Signature"] = stripe_signature

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/billing/webhook",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EndpointErrorBody | ReceiveBillingEventResponse200 | ValidationErrorBody | None:
    if response.status_code == 200:
        response_200 = ReceiveBillingEventResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ValidationErrorBody.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = EndpointErrorBody.from_dict(response.json())

        return response_404

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[EndpointErrorBody | ReceiveBillingEventResponse200 | ValidationErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveBillingEventBody,
    stripe_signature: str,
) -> Response[EndpointErrorBody | ReceiveBillingEventResponse200 | ValidationErrorBody]:
    """Stripe's webhook: events signed with STRIPE_WEBHOOK_SECRET, applied once each (docs/billing.md).

    Args:
        stripe_signature (str):
        body (ReceiveBillingEventBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EndpointErrorBody | ReceiveBillingEventResponse200 | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
        stripe_signature=stripe_signature,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveBillingEventBody,
    stripe_signature: str,
) -> EndpointErrorBody | ReceiveBillingEventResponse200 | ValidationErrorBody | None:
    """Stripe's webhook: events signed with STRIPE_WEBHOOK_SECRET, applied once each (docs/billing.md).

    Args:
        stripe_signature (str):
        body (ReceiveBillingEventBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EndpointErrorBody | ReceiveBillingEventResponse200 | ValidationErrorBody
    """

    return sync_detailed(
        client=client,
        body=body,
        stripe_signature=stripe_signature,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveBillingEventBody,
    stripe_signature: str,
) -> Response[EndpointErrorBody | ReceiveBillingEventResponse200 | ValidationErrorBody]:
    """Stripe's webhook: events signed with STRIPE_WEBHOOK_SECRET, applied once each (docs/billing.md).

    Args:
        stripe_signature (str):
        body (ReceiveBillingEventBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EndpointErrorBody | ReceiveBillingEventResponse200 | ValidationErrorBody]
    """

    kwargs = _get_kwargs(
        body=body,
        stripe_signature=stripe_signature,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ReceiveBillingEventBody,
    stripe_signature: str,
) -> EndpointErrorBody | ReceiveBillingEventResponse200 | ValidationErrorBody | None:
    """Stripe's webhook: events signed with STRIPE_WEBHOOK_SECRET, applied once each (docs/billing.md).

    Args:
        stripe_signature (str):
        body (ReceiveBillingEventBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EndpointErrorBody | ReceiveBillingEventResponse200 | ValidationErrorBody
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            stripe_signature=stripe_signature,
        )
    ).parsed
