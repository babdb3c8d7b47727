from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.token_validation_usage import TokenValidationUsage
    from ..models.token_validation_user import TokenValidationUser
    from ..models.token_validation_workspace import TokenValidationWorkspace


T = TypeVar("T", bound="TokenValidation")


@_attrs_define
class TokenValidation:
    """
    Attributes:
        user (TokenValidationUser): The token's member; `tier` is the workspace's
        usage (TokenValidationUsage):
        workspace (TokenValidationWorkspace): The workspace the token acts in (docs/workspaces.md)
    """

    user: TokenValidationUser
    usage: TokenValidationUsage
    workspace: TokenValidationWorkspace

    def to_dict(self) -> dict[str, Any]:
        user = self.user.to_dict()

        usage = self.usage.to_dict()

        workspace = self.workspace.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user": user,
                "usage": usage,
                "workspace": workspace,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.token_validation_usage import TokenValidationUsage
        from ..models.token_validation_user import TokenValidationUser
        from ..models.token_validation_workspace import TokenValidationWorkspace

        d = dict(src_dict)
        user = TokenValidationUser.from_dict(d.pop("user"))

        usage = TokenValidationUsage.from_dict(d.pop("usage"))

        workspace = TokenValidationWorkspace.from_dict(d.pop("workspace"))

        token_validation = cls(
            user=user,
            usage=usage,
            workspace=workspace,
        )

        return token_validation
