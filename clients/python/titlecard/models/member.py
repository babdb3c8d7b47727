from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.member_role import MemberRole

T = TypeVar("T", bound="Member")


@_attrs_define
class Member:
    """
    Attributes:
        user_id (str):
        email (str):
        display_name (str):
        role (MemberRole): owner, admin, editor or viewer (docs/workspaces.md#roles)
        joined_at (datetime.datetime): ISO 8601 UTC timestamp
    """

    user_id: str
    email: str
    display_name: str
    role: MemberRole
    joined_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        user_id = self.user_id

        email = self.email

        display_name = self.display_name

        role = self.role.value

        joined_at = self.joined_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "userId": user_id,
                "email": email,
                "displayName": display_name,
                "role": role,
                "joinedAt": joined_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_id = d.pop("userId")

        email = d.pop("email")

        display_name = d.pop("displayName")

        role = MemberRole(d.pop("role"))

        joined_at = datetime.datetime.fromisoformat(d.pop("joinedAt"))

        member = cls(
            user_id=user_id,
            email=email,
            display_name=display_name,
            role=role,
            joined_at=joined_at,
        )

        return member
