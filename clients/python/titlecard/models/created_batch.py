from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.created_batch_status import CreatedBatchStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreatedBatch")


@_attrs_define
class CreatedBatch:
    """
    Attributes:
        id (str):
        status (CreatedBatchStatus):
        total (int):
        done (int):
        failed (int):
        cancelled (int):
        webhook_url (None | str):
        created_at (str):
        completed_at (None | str):
        webhook_secret (str | Unset): With webhookUrl: the secret that signs its deliveries (whsec_…), shown only here.
    """

    id: str
    status: CreatedBatchStatus
    total: int
    done: int
    failed: int
    cancelled: int
    webhook_url: None | str
    created_at: str
    completed_at: None | str
    webhook_secret: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        total = self.total

        done = self.done

        failed = self.failed

        cancelled = self.cancelled

        webhook_url: None | str
        webhook_url = self.webhook_url

        created_at = self.created_at

        completed_at: None | str
        completed_at = self.completed_at

        webhook_secret = self.webhook_secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "status": status,
                "total": total,
                "done": done,
                "failed": failed,
                "cancelled": cancelled,
                "webhookUrl": webhook_url,
                "createdAt": created_at,
                "completedAt": completed_at,
            }
        )
        if webhook_secret is not UNSET:
            field_dict["webhookSecret"] = webhook_secret

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        status = CreatedBatchStatus(d.pop("status"))

        total = d.pop("total")

        done = d.pop("done")

        failed = d.pop("failed")

        cancelled = d.pop("cancelled")

        def _parse_webhook_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        webhook_url = _parse_webhook_url(d.pop("webhookUrl"))

        created_at = d.pop("createdAt")

        def _parse_completed_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        completed_at = _parse_completed_at(d.pop("completedAt"))

        webhook_secret = d.pop("webhookSecret", UNSET)

        created_batch = cls(
            id=id,
            status=status,
            total=total,
            done=done,
            failed=failed,
            cancelled=cancelled,
            webhook_url=webhook_url,
            created_at=created_at,
            completed_at=completed_at,
            webhook_secret=webhook_secret,
        )

        return created_batch
