from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.page_fetches import PageFetches


T = TypeVar("T", bound="ListSiteFetchesResponse200Data")


@_attrs_define
class ListSiteFetchesResponse200Data:
    """
    Attributes:
        pages (list[PageFetches]):
    """

    pages: list[PageFetches]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        pages = []
        for pages_item_data in self.pages:
            pages_item = pages_item_data.to_dict()
            pages.append(pages_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "pages": pages,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.page_fetches import PageFetches

        d = dict(src_dict)
        pages = []
        _pages = d.pop("pages")
        for pages_item_data in _pages:
            pages_item = PageFetches.from_dict(pages_item_data)

            pages.append(pages_item)

        list_site_fetches_response_200_data = cls(
            pages=pages,
        )

        list_site_fetches_response_200_data.additional_properties = d
        return list_site_fetches_response_200_data

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
