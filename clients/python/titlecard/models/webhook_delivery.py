from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_delivery_status import WebhookDeliveryStatus

T = TypeVar("T", bound="WebhookDelivery")


@_attrs_define
class WebhookDelivery:
    """
    Attributes:
        id (str): The webhook-id header.
        endpoint (None | str):
        url (str):
        type_ (str):
        status (WebhookDeliveryStatus):
        attempts (int):
        last_status (int | None): The receiver's last HTTP status; null when it gave none.
        last_error (None | str):
        next_attempt_at (None | str): While pending.
        created_at (str):
        delivered_at (None | str):
    """

    id: str
    endpoint: None | str
    url: str
    type_: str
    status: WebhookDeliveryStatus
    attempts: int
    last_status: int | None
    last_error: None | str
    next_attempt_at: None | str
    created_at: str
    delivered_at: None | str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        endpoint: None | str
        endpoint = self.endpoint

        url = self.url

        type_ = self.type_

        status = self.status.value

        attempts = self.attempts

        last_status: int | None
        last_status = self.last_status

        last_error: None | str
        last_error = self.last_error

        next_attempt_at: None | str
        next_attempt_at = self.next_attempt_at

        created_at = self.created_at

        delivered_at: None | str
        delivered_at = self.delivered_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "endpoint": endpoint,
                "url": url,
                "type": type_,
                "status": status,
                "attempts": attempts,
                "lastStatus": last_status,
                "lastError": last_error,
                "nextAttemptAt": next_attempt_at,
                "createdAt": created_at,
                "deliveredAt": delivered_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_endpoint(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        endpoint = _parse_endpoint(d.pop("endpoint"))

        url = d.pop("url")

        type_ = d.pop("type")

        status = WebhookDeliveryStatus(d.pop("status"))

        attempts = d.pop("attempts")

        def _parse_last_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        last_status = _parse_last_status(d.pop("lastStatus"))

        def _parse_last_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_error = _parse_last_error(d.pop("lastError"))

        def _parse_next_attempt_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("nextAttemptAt"))

        created_at = d.pop("createdAt")

        def _parse_delivered_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        delivered_at = _parse_delivered_at(d.pop("deliveredAt"))

        webhook_delivery = cls(
            id=id,
            endpoint=endpoint,
            url=url,
            type_=type_,
            status=status,
            attempts=attempts,
            last_status=last_status,
            last_error=last_error,
            next_attempt_at=next_attempt_at,
            created_at=created_at,
            delivered_at=delivered_at,
        )

        return webhook_delivery
