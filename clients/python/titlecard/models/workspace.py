from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.workspace_role import WorkspaceRole
from ..models.workspace_tier import WorkspaceTier
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.workspace_seats import WorkspaceSeats


T = TypeVar("T", bound="Workspace")


@_attrs_define
class Workspace:
    """
    Attributes:
        id (str): wsp_…; a personal workspace has its account's id
        name (str):
        tier (WorkspaceTier):
        personal (bool): A personal workspace (its owner's own, which goes only with their account)
        role (WorkspaceRole): The caller's role there
        created_at (datetime.datetime): ISO 8601 UTC timestamp
        seats (WorkspaceSeats | Unset): Members and pending invitations, against the tier’s seats (GET /workspaces/{id}
            only)
    """

    id: str
    name: str
    tier: WorkspaceTier
    personal: bool
    role: WorkspaceRole
    created_at: datetime.datetime
    seats: WorkspaceSeats | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        tier = self.tier.value

        personal = self.personal

        role = self.role.value

        created_at = self.created_at.isoformat()

        seats: dict[str, Any] | Unset = UNSET
        if not isinstance(self.seats, Unset):
            seats = self.seats.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "tier": tier,
                "personal": personal,
                "role": role,
                "createdAt": created_at,
            }
        )
        if seats is not UNSET:
            field_dict["seats"] = seats

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.workspace_seats import WorkspaceSeats

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        tier = WorkspaceTier(d.pop("tier"))

        personal = d.pop("personal")

        role = WorkspaceRole(d.pop("role"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        _seats = d.pop("seats", UNSET)
        seats: WorkspaceSeats | Unset
        if isinstance(_seats, Unset):
            seats = UNSET
        else:
            seats = WorkspaceSeats.from_dict(_seats)

        workspace = cls(
            id=id,
            name=name,
            tier=tier,
            personal=personal,
            role=role,
            created_at=created_at,
            seats=seats,
        )

        return workspace
