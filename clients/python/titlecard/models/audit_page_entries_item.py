from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.audit_page_entries_item_actor_type_0 import (
        AuditPageEntriesItemActorType0,
    )
    from ..models.audit_page_entries_item_details import AuditPageEntriesItemDetails


T = TypeVar("T", bound="AuditPageEntriesItem")


@_attrs_define
class AuditPageEntriesItem:
    """
    Attributes:
        id (str):
        action (str): member.added, member.role_changed, token.created, … (docs/workspaces.md#audit-log)
        actor (AuditPageEntriesItemActorType0 | None): Who did it; null for the operator (the CLI)
        target (None | str):
        details (AuditPageEntriesItemDetails):
        address (None | str): The client's address; null from the CLI
        at (datetime.datetime): ISO 8601 UTC timestamp
    """

    id: str
    action: str
    actor: AuditPageEntriesItemActorType0 | None
    target: None | str
    details: AuditPageEntriesItemDetails
    address: None | str
    at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        from ..models.audit_page_entries_item_actor_type_0 import (
            AuditPageEntriesItemActorType0,
        )

        id = self.id

        action = self.action

        actor: dict[str, Any] | None
        if isinstance(self.actor, AuditPageEntriesItemActorType0):
            actor = self.actor.to_dict()
        else:
            actor = self.actor

        target: None | str
        target = self.target

        details = self.details.to_dict()

        address: None | str
        address = self.address

        at = self.at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "action": action,
                "actor": actor,
                "target": target,
                "details": details,
                "address": address,
                "at": at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.audit_page_entries_item_actor_type_0 import (
            AuditPageEntriesItemActorType0,
        )
        from ..models.audit_page_entries_item_details import AuditPageEntriesItemDetails

        d = dict(src_dict)
        id = d.pop("id")

        action = d.pop("action")

        def _parse_actor(data: object) -> AuditPageEntriesItemActorType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                actor_type_0 = AuditPageEntriesItemActorType0.from_dict(data)

                return actor_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(AuditPageEntriesItemActorType0 | None, data)

        actor = _parse_actor(d.pop("actor"))

        def _parse_target(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        target = _parse_target(d.pop("target"))

        details = AuditPageEntriesItemDetails.from_dict(d.pop("details"))

        def _parse_address(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        address = _parse_address(d.pop("address"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        audit_page_entries_item = cls(
            id=id,
            action=action,
            actor=actor,
            target=target,
            details=details,
            address=address,
            at=at,
        )

        return audit_page_entries_item
