from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.audit_page_entries_item import AuditPageEntriesItem
    from ..models.audit_page_pagination import AuditPagePagination


T = TypeVar("T", bound="AuditPage")


@_attrs_define
class AuditPage:
    """
    Attributes:
        entries (list[AuditPageEntriesItem]):
        pagination (AuditPagePagination):
    """

    entries: list[AuditPageEntriesItem]
    pagination: AuditPagePagination

    def to_dict(self) -> dict[str, Any]:
        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        pagination = self.pagination.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "entries": entries,
                "pagination": pagination,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.audit_page_entries_item import AuditPageEntriesItem
        from ..models.audit_page_pagination import AuditPagePagination

        d = dict(src_dict)
        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = AuditPageEntriesItem.from_dict(entries_item_data)

            entries.append(entries_item)

        pagination = AuditPagePagination.from_dict(d.pop("pagination"))

        audit_page = cls(
            entries=entries,
            pagination=pagination,
        )

        return audit_page
