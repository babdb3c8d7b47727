from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.batch_status import BatchStatus

T = TypeVar("T", bound="Batch")


@_attrs_define
class Batch:
    """
    Attributes:
        id (str):
        status (BatchStatus):
        total (int):
        done (int):
        failed (int):
        cancelled (int):
        webhook_url (None | str):
        created_at (str):
        completed_at (None | str):
    """

    id: str
    status: BatchStatus
    total: int
    done: int
    failed: int
    cancelled: int
    webhook_url: None | str
    created_at: str
    completed_at: None | str

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

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        status = BatchStatus(d.pop("status"))

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

        batch = cls(
            id=id,
            status=status,
            total=total,
            done=done,
            failed=failed,
            cancelled=cancelled,
            webhook_url=webhook_url,
            created_at=created_at,
            completed_at=completed_at,
        )

        return batch
