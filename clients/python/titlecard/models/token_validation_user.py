from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.token_validation_user_tier import TokenValidationUserTier

T = TypeVar("T", bound="TokenValidationUser")


@_attrs_define
class TokenValidationUser:
    """The token's member; `tier` is the workspace's

    Attributes:
        id (str):
        email (str):
        display_name (str):
        tier (TokenValidationUserTier): Subscription tier: free, pro or agency
    """

    id: str
    email: str
    display_name: str
    tier: TokenValidationUserTier

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        email = self.email

        display_name = self.display_name

        tier = self.tier.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "email": email,
                "displayName": display_name,
                "tier": tier,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        email = d.pop("email")

        display_name = d.pop("displayName")

        tier = TokenValidationUserTier(d.pop("tier"))

        token_validation_user = cls(
            id=id,
            email=email,
            display_name=display_name,
            tier=tier,
        )

        return token_validation_user
