from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.site import Site


T = TypeVar("T", bound="ListSitesResponse200Data")


@_attrs_define
class ListSitesResponse200Data:
    """
    Attributes:
        sites (list[Site]):
    """

    sites: list[Site]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        sites = []
        for sites_item_data in self.sites:
            sites_item = sites_item_data.to_dict()
            sites.append(sites_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "sites": sites,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.site import Site

        d = dict(src_dict)
        sites = []
        _sites = d.pop("sites")
        for sites_item_data in _sites:
            sites_item = Site.from_dict(sites_item_data)

            sites.append(sites_item)

        list_sites_response_200_data = cls(
            sites=sites,
        )

        list_sites_response_200_data.additional_properties = d
        return list_sites_response_200_data

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
