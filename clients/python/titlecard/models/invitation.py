from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.invitation_role import InvitationRole

T = TypeVar("T", bound="Invitation")


@_attrs_define
class Invitation:
    """
    Attributes:
        id (str):
        email (str):
        role (InvitationRole): owner, admin, editor or viewer (docs/workspaces.md#roles)
        invited_by (str): The user id of who invited
        created_at (datetime.datetime): ISO 8601 UTC timestamp
        expires_at (datetime.datetime): ISO 8601 UTC timestamp
    """

    id: str
    email: str
    role: InvitationRole
    invited_by: str
    created_at: datetime.datetime
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        email = self.email

        role = self.role.value

        invited_by = self.invited_by

        created_at = self.created_at.isoformat()

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "email": email,
                "role": role,
                "invitedBy": invited_by,
                "createdAt": created_at,
                "expiresAt": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        email = d.pop("email")

        role = InvitationRole(d.pop("role"))

        invited_by = d.pop("invitedBy")

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expiresAt"))

        invitation = cls(
            id=id,
            email=email,
            role=role,
            invited_by=invited_by,
            created_at=created_at,
            expires_at=expires_at,
        )

        return invitation
