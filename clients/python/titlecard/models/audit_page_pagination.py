from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="AuditPagePagination")


@_attrs_define
class AuditPagePagination:
    """
    Attributes:
        total (int):
        limit (int):
        offset (int):
        has_more (bool):
    """

    total: int
    limit: int
    offset: int
    has_more: bool

    def to_dict(self) -> dict[str, Any]:
        total = self.total

        limit = self.limit

        offset = self.offset

        has_more = self.has_more

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "total": total,
                "limit": limit,
                "offset": offset,
                "hasMore": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        total = d.pop("total")

        limit = d.pop("limit")

        offset = d.pop("offset")

        has_more = d.pop("hasMore")

        audit_page_pagination = cls(
            total=total,
            limit=limit,
            offset=offset,
            has_more=has_more,
        )

        return audit_page_pagination
