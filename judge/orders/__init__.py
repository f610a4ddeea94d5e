"""Orders: player text to typed orders (`parse_order`, `parse_orders`) and their legality (`check_order`)."""
from judge.orders.model import (UNIT_ORDERS, Build, Convoy, Disband, Hold, Keep, Move, Order, Proxy, Retreat,
                                Support, Waive)
from judge.orders.parser import OrderReader, parse_order
from judge.orders.power_orders import parse_orders
from judge.orders.validate import check_order

__all__ = ["Build", "Convoy", "Disband", "Hold", "Keep", "Move", "Order", "OrderReader", "Proxy", "Retreat",
           "Support", "UNIT_ORDERS", "Waive", "check_order", "parse_order", "parse_orders"]
