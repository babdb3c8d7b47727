from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.batch_request_items_item import BatchRequestItemsItem


T = TypeVar("T", bound="BatchRequest")


@_attrs_define
class BatchRequest:
    """
    Attributes:
        items (list[BatchRequestItemsItem]): 1 to 1000 generations, each what POST /generate takes without the upload:
            preset, asset or imageUrl for the background, title, subtitle and options.
        webhook_url (str | Unset): Also sent batch.completed (besides your webhook endpoints).
    """

    items: list[BatchRequestItemsItem]
    webhook_url: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        webhook_url = self.webhook_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "items": items,
            }
        )
        if webhook_url is not UNSET:
            field_dict["webhookUrl"] = webhook_url

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.batch_request_items_item import BatchRequestItemsItem

        d = dict(src_dict)
        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = BatchRequestItemsItem.from_dict(items_item_data)

            items.append(items_item)

        webhook_url = d.pop("webhookUrl", UNSET)

        batch_request = cls(
            items=items,
            webhook_url=webhook_url,
        )

        return batch_request
