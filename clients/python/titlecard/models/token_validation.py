from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.token_validation_usage import TokenValidationUsage
    from ..models.token_validation_user import TokenValidationUser


T = TypeVar("T", bound="TokenValidation")


@_attrs_define
class TokenValidation:
    """
    Attributes:
        user (TokenValidationUser):
        usage (TokenValidationUsage):
    """

    user: TokenValidationUser
    usage: TokenValidationUsage

    def to_dict(self) -> dict[str, Any]:
        user = self.user.to_dict()

        usage = self.usage.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user": user,
                "usage": usage,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.token_validation_usage import TokenValidationUsage
        from ..models.token_validation_user import TokenValidationUser

        d = dict(src_dict)
        user = TokenValidationUser.from_dict(d.pop("user"))

        usage = TokenValidationUsage.from_dict(d.pop("usage"))

        token_validation = cls(
            user=user,
            usage=usage,
        )

        return token_validation
