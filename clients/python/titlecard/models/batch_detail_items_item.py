from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.batch_detail_items_item_status import BatchDetailItemsItemStatus

if TYPE_CHECKING:
    from ..models.batch_detail_items_item_error_type_0 import (
        BatchDetailItemsItemErrorType0,
    )
    from ..models.batch_detail_items_item_image_type_0 import (
        BatchDetailItemsItemImageType0,
    )


T = TypeVar("T", bound="BatchDetailItemsItem")


@_attrs_define
class BatchDetailItemsItem:
    """
    Attributes:
        index (int):
        status (BatchDetailItemsItemStatus):
        image (BatchDetailItemsItemImageType0 | None):
        error (BatchDetailItemsItemErrorType0 | None):
        warnings (list[str]): (Ours.) A done item's render warnings, in words to show a person: a background enlarged
            more than 1.5 times to cover the card (it looks soft). Empty when none.
    """

    index: int
    status: BatchDetailItemsItemStatus
    image: BatchDetailItemsItemImageType0 | None
    error: BatchDetailItemsItemErrorType0 | None
    warnings: list[str]

    def to_dict(self) -> dict[str, Any]:
        from ..models.batch_detail_items_item_error_type_0 import (
            BatchDetailItemsItemErrorType0,
        )
        from ..models.batch_detail_items_item_image_type_0 import (
            BatchDetailItemsItemImageType0,
        )

        index = self.index

        status = self.status.value

        image: dict[str, Any] | None
        if isinstance(self.image, BatchDetailItemsItemImageType0):
            image = self.image.to_dict()
        else:
            image = self.image

        error: dict[str, Any] | None
        if isinstance(self.error, BatchDetailItemsItemErrorType0):
            error = self.error.to_dict()
        else:
            error = self.error

        warnings = self.warnings

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "index": index,
                "status": status,
                "image": image,
                "error": error,
                "warnings": warnings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.batch_detail_items_item_error_type_0 import (
            BatchDetailItemsItemErrorType0,
        )
        from ..models.batch_detail_items_item_image_type_0 import (
            BatchDetailItemsItemImageType0,
        )

        d = dict(src_dict)
        index = d.pop("index")

        status = BatchDetailItemsItemStatus(d.pop("status"))

        def _parse_image(data: object) -> BatchDetailItemsItemImageType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                image_type_0 = BatchDetailItemsItemImageType0.from_dict(data)

                return image_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BatchDetailItemsItemImageType0 | None, data)

        image = _parse_image(d.pop("image"))

        def _parse_error(data: object) -> BatchDetailItemsItemErrorType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = BatchDetailItemsItemErrorType0.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BatchDetailItemsItemErrorType0 | None, data)

        error = _parse_error(d.pop("error"))

        warnings = cast(list[str], d.pop("warnings"))

        batch_detail_items_item = cls(
            index=index,
            status=status,
            image=image,
            error=error,
            warnings=warnings,
        )

        return batch_detail_items_item
